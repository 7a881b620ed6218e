/* straightline: what every C-backend module shares (generator/native/c_module.py writes the rest):
   the call of a fast function from C, the shortcuts taken on exact built-in types, and the
   module's initialisation. Each shortcut is what the exact type's own method does; any other
   value goes through the C API call the interpreter makes, so the answer is the pure module's. */

#ifndef STRAIGHTLINE_C_H
#define STRAIGHTLINE_C_H

#include <Python.h>
#include <marshal.h>
#include <math.h>
#include "straightline_stack.h"

/* A C fast function called from C counts one level against the recursion limit, as the pure
   module's frame does, and checks the C stack first: 0, or -1 with RecursionError set. */
static inline int sl_enter(void) {
    if (Py_EnterRecursiveCall(" in is_valid")) {
        return -1;
    }
    if (straightline_check_stack()) {
        Py_LeaveRecursiveCall();
        return -1;
    }
    return 0;
}

/* Where the pure module calls a C method of one or no argument (`d.items()`, `f.is_integer()`),
   CPython counts that call against the recursion limit while it runs; a shortcut that makes no
   call counts it the same way, so a deep instance meets the limit where the pure module does.
   0, or -1 with RecursionError set. */
static inline int sl_counted(void) {
    if (Py_EnterRecursiveCall(" while calling a Python object")) {
        return -1;
    }
    Py_LeaveRecursiveCall();
    return 0;
}

static inline int sl_stack_low(void) {
    return straightline_check_stack() != 0;
}

static PyObject *sl_from_int(int result) {
    if (result < 0) {
        return NULL;
    }
    return Py_NewRef(result ? Py_True : Py_False);
}

/* A fast function the C backend did not render: the pure module's, called. */
static int sl_call_pure(PyObject *function, PyObject *x) {
    PyObject *result = PyObject_CallOneArg(function, x);
    if (result == NULL) {
        return -1;
    }
    int truth = PyObject_IsTrue(result);
    Py_DECREF(result);
    return truth;
}

static void sl_unbound(const char *name) {
    PyErr_Format(PyExc_UnboundLocalError, "local variable '%s' referenced before assignment", name);
}

/* `left OP right` as a truth value (Python's operator: no identity shortcut), 0/1, -1 on error.
   Two exact ints, two exact floats or two exact strs are compared by their type's own
   comparison; anything else through PyObject_RichCompare. */
static int sl_compare(PyObject *left, PyObject *right, int op) {
    PyObject *result;
    if (Py_IS_TYPE(left, &PyLong_Type) && Py_IS_TYPE(right, &PyLong_Type)) {
        result = PyLong_Type.tp_richcompare(left, right, op);
    } else if (Py_IS_TYPE(left, &PyFloat_Type) && Py_IS_TYPE(right, &PyFloat_Type)) {
        double a = PyFloat_AS_DOUBLE(left), b = PyFloat_AS_DOUBLE(right);
        switch (op) {
            case Py_EQ: return a == b;
            case Py_NE: return a != b;
            case Py_LT: return a < b;
            case Py_LE: return a <= b;
            case Py_GT: return a > b;
            default: return a >= b;
        }
    } else if (Py_IS_TYPE(left, &PyUnicode_Type) && Py_IS_TYPE(right, &PyUnicode_Type)) {
        result = PyUnicode_Type.tp_richcompare(left, right, op);
    } else {
        result = PyObject_RichCompare(left, right, op);
    }
    if (result == NULL) {
        return -1;
    }
    int truth = result == Py_True ? 1 : result == Py_False ? 0 : PyObject_IsTrue(result);
    Py_DECREF(result);
    return truth;
}

static PyObject *sl_method(PyObject *name, PyObject *const *arguments, size_t count) {
    return PyObject_VectorcallMethod(name, (PyObject **)arguments, count, NULL);
}

static int sl_method_truth(PyObject *name, PyObject *const *arguments, size_t count) {
    PyObject *result = sl_method(name, arguments, count);
    if (result == NULL) {
        return -1;
    }
    int truth = PyObject_IsTrue(result);
    Py_DECREF(result);
    return truth;
}

/* `d.get(key, default)`: a new reference. */
static PyObject *sl_dict_get(PyObject *d, PyObject *key, PyObject *fallback, PyObject *name) {
    if (Py_IS_TYPE(d, &PyDict_Type)) {
        PyObject *found = PyDict_GetItemWithError(d, key);
        if (found == NULL) {
            return PyErr_Occurred() ? NULL : Py_NewRef(fallback);
        }
        return Py_NewRef(found);
    }
    PyObject *arguments[3] = {d, key, fallback};
    return sl_method(name, arguments, 3);
}

/* `f.is_integer()`. */
static int sl_is_integer(PyObject *f, PyObject *name) {
    if (Py_IS_TYPE(f, &PyFloat_Type)) {
        if (sl_counted()) {
            return -1;
        }
        double value = PyFloat_AS_DOUBLE(f);
        return isfinite(value) && floor(value) == value;
    }
    PyObject *arguments[1] = {f};
    return sl_method_truth(name, arguments, 1);
}

/* `s.isascii()`. */
static int sl_isascii(PyObject *s, PyObject *name) {
    if (Py_IS_TYPE(s, &PyUnicode_Type)) {
        return sl_counted() ? -1 : PyUnicode_IS_ASCII(s);
    }
    PyObject *arguments[1] = {s};
    return sl_method_truth(name, arguments, 1);
}

/* `s.startswith(prefix)`. */
static int sl_startswith(PyObject *s, PyObject *prefix, PyObject *name) {
    if (Py_IS_TYPE(s, &PyUnicode_Type) && Py_IS_TYPE(prefix, &PyUnicode_Type)) {
        if (sl_counted()) {
            return -1;
        }
        Py_ssize_t found = PyUnicode_Tailmatch(s, prefix, 0, PY_SSIZE_T_MAX, -1);
        return found < 0 ? -1 : (int)found;
    }
    PyObject *arguments[2] = {s, prefix};
    return sl_method_truth(name, arguments, 2);
}

static void sl_dict_changed(void) {
    PyErr_SetString(PyExc_RuntimeError, "dictionary changed size during iteration");
}

/* `a, b = item` (as many names as `count`): a new tuple of exactly `count` values, else
   ValueError as Python words it. */
static PyObject *sl_unpack(PyObject *item, Py_ssize_t count) {
    if (Py_IS_TYPE(item, &PyTuple_Type) && PyTuple_GET_SIZE(item) == count) {
        return Py_NewRef(item);
    }
    PyObject *values = PySequence_Tuple(item);
    if (values == NULL) {
        return NULL;
    }
    Py_ssize_t found = PyTuple_GET_SIZE(values);
    if (found != count) {
        if (found < count) {
            PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected %zd, got %zd)", count, found);
        } else {
            PyErr_Format(PyExc_ValueError, "too many values to unpack (expected %zd)", count);
        }
        Py_DECREF(values);
        return NULL;
    }
    return values;
}

/* The module: its own code (marshal data) run in its namespace, then the objects the C reads
   (globals by name, else builtins; constants by their Python text; attribute names), then each
   C fast function put in place of the pure one under every name that holds it. Where anything
   after the code fails, the module is returned as the pure module it is, with a RuntimeWarning. */
static int sl_fetch(PyObject *dict, PyObject **globals, const char *const *global_names, PyObject **constants,
                    const char *const *constant_texts, PyObject **names, const char *const *name_texts) {
    PyObject *builtins = PyEval_GetBuiltins();
    for (Py_ssize_t i = 0; global_names[i] != NULL; i++) {
        PyObject *found = PyDict_GetItemString(dict, global_names[i]);
        if (found == NULL && builtins != NULL) {
            found = PyDict_GetItemString(builtins, global_names[i]);
        }
        if (found == NULL) {
            PyErr_Format(PyExc_NameError, "name '%s' is not defined", global_names[i]);
            return -1;
        }
        globals[i] = Py_NewRef(found);
    }
    for (Py_ssize_t i = 0; constant_texts[i] != NULL; i++) {
        constants[i] = PyRun_String(constant_texts[i], Py_eval_input, dict, dict);
        if (constants[i] == NULL) {
            return -1;
        }
    }
    for (Py_ssize_t i = 0; name_texts[i] != NULL; i++) {
        names[i] = PyUnicode_InternFromString(name_texts[i]);
        if (names[i] == NULL) {
            return -1;
        }
    }
    return 0;
}

static int sl_install(PyObject *module, PyObject *dict, PyMethodDef *methods) {
    PyObject *module_name = PyModule_GetNameObject(module);
    if (module_name == NULL) {
        return -1;
    }
    for (PyMethodDef *method = methods; method->ml_name != NULL; method++) {
        PyObject *pure = PyDict_GetItemString(dict, method->ml_name);
        if (pure == NULL) {
            continue;
        }
        Py_INCREF(pure);
        PyObject *compiled = PyCFunction_NewEx(method, module, module_name);
        if (compiled == NULL) {
            Py_DECREF(pure);
            Py_DECREF(module_name);
            return -1;
        }
        Py_ssize_t position = 0;
        PyObject *key, *value;
        while (PyDict_Next(dict, &position, &key, &value)) {
            if (value == pure && PyDict_SetItem(dict, key, compiled) < 0) {  /* (a value replaced, no key added) */
                Py_DECREF(compiled);
                Py_DECREF(pure);
                Py_DECREF(module_name);
                return -1;
            }
        }
        Py_DECREF(compiled);
        Py_DECREF(pure);
    }
    Py_DECREF(module_name);
    return 0;
}

#endif
