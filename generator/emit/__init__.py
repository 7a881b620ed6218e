"""Stage 6, emit: the planned IR to a tree of Python code (tree.py), rendered once, at the end.

module.py holds one module's emitter (functions, names, constants); fast.py, error_path.py and
annotations.py the three kinds of function; alternatives.py the oneOf/anyOf dispatch; context.py
what a keyword unit's emission gets; names.py scopes and constants; sources.py the primitives a
module copies in. Import the modules themselves: this package's face stays empty so that keyword
units can import its parts without a cycle.
"""
