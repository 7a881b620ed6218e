"""Validation on a Dask cluster, for data that outgrows one machine (the optional extra `dask`).

`invalid_records(bag, module)` maps a generated module over a dask.bag of instances and gives
back a bag of the records it rejects, each with its errors. `run_on_dask(...)` is what
`straightline validate --dask ADDRESS` runs: the same tasks as one process (whole files, byte
ranges of JSON Lines files) computed on the cluster's workers, results back in input order.

The module travels as its source (text, or the path of its file) once per graph, and each worker
process loads it once (runner.checker_for), whatever the number of partitions. The workers need
straightline installed (`pip install 'straightline[dask]'`) and, for `--dask`, the data files at
the same paths (a shared file system): a task carries a file's path and byte range, not its bytes
(standard input is the exception: it is read here and its blocks are sent).
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from ..errors import OptionError
from .modules import ModuleSource
from .runner import TaskResult, checker_for, run_task
from .tasks import Task

DASK_EXTRA_HINT = "pip install 'straightline[dask]'"


def require_dask() -> None:
    """OptionError naming the extra unless dask.bag and distributed can be imported."""
    try:
        import dask.bag  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as exc:
        raise OptionError(f"Dask is not installed ({exc.name or exc}): {DASK_EXTRA_HINT}") from None


def invalid_records(bag: Any, module: Any, output_format: str = "json") -> Any:
    """A dask.bag of the records of `bag` that `module` rejects, in order, each a dict:
        `{"partition": i, "index": j, "record": value, "errors": [error fields...]}` (i: the
        partition of `bag`, j: the record's place in it; `best_match` where the module has it;
        `output` instead of `errors` for output_format "basic"/"detailed"/"verbose"; `problem` instead,
    naming the function, for a record on which a custom format function raised: the other records are
    still checked, as by `straightline validate`). `module` is a generated
        module object (compile_module's, or one imported from a file), a path to a module file, or a
        ModuleSource. Nothing is computed until the bag is."""
    require_dask()
    import dask
    import dask.bag as db

    source = ModuleSource.of(module)
    shared = dask.delayed(source, pure=True)  # one key in the graph, not one copy per partition
    check = dask.delayed(_invalid_in_partition, pure=True)
    parts = bag.to_delayed()
    return db.from_delayed(
        [check(part, index, shared, output_format) for index, part in enumerate(parts)]
    )


def _invalid_in_partition(
    records: Iterable[Any], partition: int, source: ModuleSource, output_format: str
) -> list[dict[str, Any]]:
    checker = checker_for(source, output_format)
    found: list[dict[str, Any]] = []
    for index, record in enumerate(records):
        failure = checker.check(record, None)  # a custom format function's exception: a problem
        if failure is None:
            continue
        entry: dict[str, Any] = {"partition": partition, "index": index, "record": record}
        if failure.problem is not None:
            entry["problem"] = failure.problem
        elif failure.output is not None:
            entry["output"] = failure.output
        else:
            entry["errors"] = failure.errors
            if failure.best_match is not None:
                entry["best_match"] = failure.best_match
        found.append(entry)
    return found


def check_address(address: str) -> None:
    """OptionError for an address no Client of the command can use, before a Client is made: a
    Client whose constructor fails on one is left half made, and its __del__ then waits 20 s to
    close it and prints a traceback. Refused: an empty address, a malformed one (no port, an
    unknown scheme), inproc:// (a scheduler inside this very process, which the command never
    has) and one its scheme's backend cannot use (distributed's ucx:// is a stub that only warns).
    """
    import warnings

    from distributed.comm.addressing import normalize_address, parse_address
    from distributed.comm.registry import get_backend

    if not address.strip():
        raise OptionError(
            "--dask: the address is empty (give the scheduler's, like tcp://127.0.0.1:8786)"
        )
    try:
        scheme, location = parse_address(normalize_address(address))
        if scheme == "inproc":
            problem = "inproc:// is a scheduler inside this process; give a running one's, like tcp://127.0.0.1:8786"
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # (the ucx stub warns, then raises the same text)
                get_backend(scheme).get_address_host(location)  # no port, a stub backend: raises
            return
    except Exception as exc:
        problem = f"{type(exc).__name__}: {' '.join(str(exc).split())}"  # one line (the ucx stub's has several)
    raise OptionError(f"--dask {address}: cannot reach the scheduler ({problem})")


def run_on_dask(
    tasks: Iterable[Task], source: ModuleSource, output_format: str, address: str
) -> Iterator[tuple[Task, TaskResult]]:
    """Each task and its result, in input order, computed on the cluster at `address`."""
    require_dask()
    import dask
    import dask.bag as db
    from distributed import Client

    check_address(address)
    try:
        client = Client(address, timeout="10s", set_as_default=False)
    except Exception as exc:  # refused, timed out, malformed address: all a usage error
        raise OptionError(
            f"--dask {address}: cannot reach the scheduler ({type(exc).__name__}: {exc})"
        ) from None
    try:
        listed = list(tasks)
        if not listed:
            return
        shared = dask.delayed(source, pure=True)
        results = db.from_sequence(listed, partition_size=1).map(run_task, shared, output_format)
        futures = client.compute(results.to_delayed())
        done = iter(listed)
        for future in futures:
            for result in future.result():
                yield next(done), result
            future.release()
    finally:
        client.close()
