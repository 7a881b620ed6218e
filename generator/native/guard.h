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
      of the thread's stack is left (below), and raises RecursionError if not:
      the module answers that as it answers a recursion limit reached (on a fresh thread's stack,
      then the too-deep error). Where the thread's stack cannot be found, nothing is checked. */

#ifndef STRAIGHTLINE_GUARD_H
#define STRAIGHTLINE_GUARD_H

#include <Python.h>
#include <CPy.h>
#include <stdint.h>

#if defined(__linux__) || defined(__APPLE__) || defined(__FreeBSD__) || defined(__NetBSD__) || defined(__OpenBSD__)
#include <pthread.h>
#if defined(__FreeBSD__) || defined(__OpenBSD__)
#include <pthread_np.h>
#endif
#define STRAIGHTLINE_KNOWS_STACKS 1
#endif

/* What the check leaves for the calls between two checks: a quarter of the thread's stack, at
   most 512 KiB (at the default recursion limit the limit is reached first). */
#define STRAIGHTLINE_STACK_MARGIN_MAX ((size_t)512 * 1024)

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

#ifdef STRAIGHTLINE_KNOWS_STACKS
/* The calling thread's stack, found once per thread: the check raises at an address in [low,
   floor), the margin above the stack's lowest address (state 0: not yet found; 1: found; 2: not
   known, nothing is checked). One thread-local variable: one look-up a check. */
typedef struct {
    uintptr_t low;
    uintptr_t floor;
    int state;
} straightline_stack;
static _Thread_local straightline_stack straightline_this_stack;

static void straightline_find_stack(straightline_stack *stack) {
    uintptr_t low = 0, high = 0;
#if defined(__APPLE__)
    high = (uintptr_t)pthread_get_stackaddr_np(pthread_self());
    low = high - (uintptr_t)pthread_get_stacksize_np(pthread_self());
#elif defined(__OpenBSD__)
    stack_t segment;
    if (pthread_stackseg_np(pthread_self(), &segment) == 0) {
        high = (uintptr_t)segment.ss_sp;
        low = high - (uintptr_t)segment.ss_size;
    }
#else
    pthread_attr_t attributes;
    void *address;
    size_t size;
#if defined(__FreeBSD__)
    int found = pthread_attr_init(&attributes) == 0;
    if (found && pthread_attr_get_np(pthread_self(), &attributes) != 0) {
        pthread_attr_destroy(&attributes);
        found = 0;
    }
#else
    int found = pthread_getattr_np(pthread_self(), &attributes) == 0;
#endif
    if (found) {
        if (pthread_attr_getstack(&attributes, &address, &size) == 0) {
            low = (uintptr_t)address;
            high = low + (uintptr_t)size;
        }
        pthread_attr_destroy(&attributes);
    }
#endif
    if (low == 0 || high <= low) {
        stack->state = 2;
        return;
    }
    uintptr_t margin = (high - low) / 4;
    if (margin > STRAIGHTLINE_STACK_MARGIN_MAX) {
        margin = STRAIGHTLINE_STACK_MARGIN_MAX;
    }
    stack->low = low;
    stack->floor = low + margin;
    stack->state = 1;
}

/* 0, or -1 with RecursionError set when less than the margin of the thread's stack is left. */
static inline int straightline_check_stack(void) {
    char here;
    uintptr_t position = (uintptr_t)&here;
    straightline_stack *stack = &straightline_this_stack;
    if (stack->state == 0) {
        straightline_find_stack(stack);
    }
    if (stack->state == 1 && position >= stack->low && position < stack->floor) {
        PyErr_SetString(PyExc_RecursionError,
                        "maximum recursion depth exceeded (the thread's C stack is nearly full)");
        return -1;
    }
    return 0;
}
#else
static inline int straightline_check_stack(void) {
    return 0;
}
#endif

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
