"""straightline: a compiler from JSON contracts to standalone Python validator modules."""

__version__ = "0.1.0"

from .api import compile_module, compile_source  # noqa: E402
from .contracts import compile_contract_module, compile_contract_source  # noqa: E402
from .errors import OptionError, SchemaError, StraightlineError  # noqa: E402
from .profiles import PROFILES  # noqa: E402

__all__ = [
    "OptionError",
    "PROFILES",
    "SchemaError",
    "StraightlineError",
    "__version__",
    "compile_contract_module",
    "compile_contract_source",
    "compile_module",
    "compile_source",
]
