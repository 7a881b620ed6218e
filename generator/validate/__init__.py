"""Validating data with a generated module: the engine behind `straightline validate`.

readers (JSON, JSON Lines, YAML into instances), discover (which files DATA names), tasks (the
units of work: whole files, byte ranges of JSON Lines files, blocks of standard input), modules
(a generated module as text or a file, loaded once per process), runner (one task through one
module; the serial loop), parallel (--jobs: worker processes), dask (--dask, and
`invalid_records` over a dask.bag), report (text and JSON reporters), progress (the bar).

Nothing here imports the compiler: validating with an already compiled module (`--module`) loads
neither black nor jinja2 nor any compile stage.
"""
