/* straightline: the C stack check of native modules (generator/native), included by guard.h (the
   mypyc build) and by the C backend's module (c_module.py).

   straightline_check_stack() returns 0, or -1 with RecursionError set when less than a margin of
   the calling thread's C stack is left: a quarter of the stack, at most 512 KiB. Native code calls
   it before it goes deeper, so a thread with a small stack (threading.stack_size) or a recursion
   limit raised far above the default is answered as the limit is, never by a crash. Where the
   thread's stack cannot be found, nothing is checked. */

#ifndef STRAIGHTLINE_STACK_H
#define STRAIGHTLINE_STACK_H

#include <Python.h>
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

#ifdef STRAIGHTLINE_KNOWS_STACKS
/* The calling thread's stack, found once per thread: the check raises at an address in [low,
   floor), the margin above the stack's lowest address (state 0: not yet found; 1: found; 2: not
   known, nothing is checked). One thread-local variable: one look-up a check. */
typedef struct {
    uintptr_t low;
    uintptr_t floor;
    int state;
} straightline_stack;
#ifdef STRAIGHTLINE_STACK_SHARED
/* (a C backend module cut into units, generator/native/c_build.py: one state for them all, so a
   thread finds its stack once, defined in the first unit) */
extern _Thread_local straightline_stack straightline_this_stack;
#else
static _Thread_local straightline_stack straightline_this_stack;
#endif

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

/* The calling thread's stack, found if it was not yet. The C backend's functions pass it down a
   chain of calls: a thread-local look-up in a shared library is a call of __tls_get_addr, which
   at every check took about 9% of a large module's call (docs/native.md, "One stack look-up a
   chain of calls"). */
static inline const straightline_stack *straightline_thread_stack(void) {
    straightline_stack *stack = &straightline_this_stack;
    if (stack->state == 0) {
        straightline_find_stack(stack);
    }
    return stack;
}

/* 0, or -1 with RecursionError set when less than the margin of `stack` is left, the calling
   thread's (straightline_thread_stack). */
static inline int straightline_check_stack_of(const straightline_stack *stack) {
    char here;
    uintptr_t position = (uintptr_t)&here;
    if (stack->state == 1 && position >= stack->low && position < stack->floor) {
        PyErr_SetString(PyExc_RecursionError,
                        "maximum recursion depth exceeded (the thread's C stack is nearly full)");
        return -1;
    }
    return 0;
}
#else
typedef struct {
    int state;
} straightline_stack;

static inline const straightline_stack *straightline_thread_stack(void) {
    static const straightline_stack unknown = {2};
    return &unknown;
}

static inline int straightline_check_stack_of(const straightline_stack *stack) {
    (void)stack;
    return 0;
}
#endif

/* 0, or -1 with RecursionError set when less than the margin of the thread's stack is left. */
static inline int straightline_check_stack(void) {
    return straightline_check_stack_of(straightline_thread_stack());
}

#endif
