"""The benchmark harness of straightline (`python -m bench`, `make bench`); see bench/README.md."""
