/* straightline: included first by every C file of a native module (generator/native/worker.py).

   Two ways a mypyc-compiled validator could end the process where the pure module answers:

   1. mypyc compares two ints, one of them outside 63 bits, with PyObject_RichCompareBool and takes
      its -1 for a failed allocation ("fatal: out of memory", abort). CPython counts that comparison
      against the recursion limit, so a deep validation that reached the limit exactly there
      aborted. Two exact ints are compared here with int's own comparison, which is not counted and
      cannot fail; any other operands go to PyObject_RichCompareBool as before.

   2. mypyc calls a module's functions directly in C, uncounted by the recursion limit; the calls
      that close a cycle of the schema go through Python's call protocol, which counts. How much C
      stack lies between two counted calls is not bounded by the limit, so a thread with a small
      stack (threading.stack_size) or a limit raised far above the default ran out of C stack.
      Every call through the call protocol made from the module's code first checks that a margin
      of the thread's stack is left (stack.h), and raises RecursionError if not:
      the module answers that as it answers a recursion limit reached (on a fresh thread's stack,
      then the too-deep error). Where the thread's stack cannot be found, nothing is checked. */

#ifndef STRAIGHTLINE_GUARD_H
#define STRAIGHTLINE_GUARD_H

#include <Python.h>
#include <CPy.h>
#include "straightline_stack.h"

static int straightline_compare_ints(PyObject *left, PyObject *right, int op) {
    if (PyLong_CheckExact(left) && PyLong_CheckExact(right)) {
        PyObject *result = PyLong_Type.tp_richcompare(left, right, op);
        if (result == NULL) {
            return -1;
        }
        int truth = PyObject_IsTrue(result);
        Py_DECREF(result);
        return truth;
    }
    return PyObject_RichCompareBool(left, right, op);
}

static PyObject *straightline_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    return straightline_check_stack() ? NULL : PyObject_Vectorcall(callable, args, nargsf, kwnames);
}

static PyObject *straightline_call(PyObject *callable, PyObject *args, PyObject *kwargs) {
    return straightline_check_stack() ? NULL : PyObject_Call(callable, args, kwargs);
}

static PyObject *straightline_call_object(PyObject *callable, PyObject *args) {
    return straightline_check_stack() ? NULL : PyObject_CallObject(callable, args);
}

static PyObject *straightline_call_one_arg(PyObject *callable, PyObject *arg) {
    return straightline_check_stack() ? NULL : PyObject_CallOneArg(callable, arg);
}

static PyObject *straightline_call_no_args(PyObject *callable) {
    return straightline_check_stack() ? NULL : PyObject_CallNoArgs(callable);
}

#define PyObject_RichCompareBool straightline_compare_ints
#define PyObject_Vectorcall straightline_vectorcall
#define PyObject_Call straightline_call
#define PyObject_CallObject straightline_call_object
#define PyObject_CallOneArg straightline_call_one_arg
#define PyObject_CallNoArgs straightline_call_no_args
#define PyObject_CallFunctionObjArgs(...) (straightline_check_stack() ? NULL : PyObject_CallFunctionObjArgs(__VA_ARGS__))

#endif
