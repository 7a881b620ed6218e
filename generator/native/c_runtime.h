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

/* A C fast function: `int sl_<name>(PyObject *x, const straightline_stack *sl_stack)`, sl_stack
   the calling thread's stack (straightline_thread_stack), passed down the calls. */
typedef int (*sl_fast)(PyObject *, const straightline_stack *);

/* A run of an object's properties that each call one fast function on their item when the key
   is present (c_module.py's property_calls), walked by one loop: the key's slot in the object's
   pass (-1: none), its constant (sl_k, sl_kh), the callee, and whether a call of it counts a
   level (SL_COUNTS_<callee>: not where it calls the pure module's function, which counts its own). */
typedef struct {
    int slot;
    int key;
    sl_fast call;
    int counts;
} sl_property_call;

/* A C fast function called from C counts one level against the recursion limit, as the pure
   module's frame does, and checks the C stack first: 0, or -1 with RecursionError set. */
static inline int sl_enter(const straightline_stack *stack) {
    if (Py_EnterRecursiveCall(" in is_valid")) {
        return -1;
    }
    if (straightline_check_stack_of(stack)) {
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

/* A C fast function called from Python (the module's `_v0`...): the thread's stack found once,
   checked, then passed down. 1, 0, or -1 with an exception set. */
static int sl_from_python(sl_fast function, PyObject *x) {
    const straightline_stack *stack = straightline_thread_stack();
    if (straightline_check_stack_of(stack)) {
        return -1;
    }
    return function(x, stack);
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

/* The memo table of one validation call in C: what memo_runtime's lean wrapper keeps in the
   call's dict under (the pure function, id(value)), kept here under (the memoized function's
   number in the module, the value's address): its entries in order, and an index of them by
   that key (open addressing). Each entry holds a reference to its value, so no other object
   takes that address while the table lives. The module's `_memo_owned` (the C form of
   memo_runtime's: sl_memo_owned below) makes one for each call and lets it go when the call
   returns: nothing is kept from one call to the next. */
typedef struct {
    PyObject *value;
    int function;
    int answer;
} sl_memo_entry;

typedef struct {
    Py_ssize_t holders;      /* its owner call, and each memoized call running on it */
    sl_memo_entry *entries;  /* one block: `room` entries, then the index's 2 * room slots */
    uint32_t *index;         /* each slot: an entry's position + 1, or 0 (empty) */
    uint32_t used;
    uint32_t room;           /* 0 before the first entry */
    size_t mask;             /* the index's slots - 1 */
    PyObject *python_table;  /* the Python wrappers' dict (`_MEMO.table`), made at first read */
} sl_memo;

/* The table of the call running in this thread (NULL between calls). */
#ifdef STRAIGHTLINE_STACK_SHARED
extern _Thread_local sl_memo *sl_memo_now;  /* (one for all the units: c_build.py) */
#else
static _Thread_local sl_memo *sl_memo_now;
#endif

static void sl_memo_let_go(sl_memo *table) {
    if (--table->holders > 0) {
        return;
    }
    sl_memo_entry *entries = table->entries;
    uint32_t used = table->used;
    PyObject *python_table = table->python_table;
    PyMem_Free(table);
    for (uint32_t i = 0; i < used; i++) {  /* (a value's finalizer may run: the table is gone) */
        Py_DECREF(entries[i].value);
    }
    PyMem_Free(entries);
    Py_XDECREF(python_table);
}

/* The index slot of (function, x): the one holding its entry, or the empty one where it would
   go (at most half the slots are used). */
static inline uint32_t *sl_memo_slot(const sl_memo *table, PyObject *x, int function) {
    uint64_t h = (((uint64_t)(uintptr_t)x >> 4) ^ ((uint64_t)(unsigned)function << 40)) *
                 0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(h >> 32) & table->mask;
    for (;;) {
        uint32_t *slot = &table->index[i];
        if (*slot == 0) {
            return slot;
        }
        const sl_memo_entry *entry = &table->entries[*slot - 1];
        if (entry->value == x && entry->function == function) {
            return slot;
        }
        i = (i + 1) & table->mask;
    }
}

/* Room for one more entry: twice the room (128 entries first, 3 KiB: the bench's Recursive
   makes 67 a call). 0, or -1 with MemoryError set. */
static Py_NO_INLINE int sl_memo_grow(sl_memo *table) {
    uint32_t room = table->room == 0 ? 128 : table->room * 2;
    size_t bytes = (size_t)room * (sizeof(sl_memo_entry) + 2 * sizeof(uint32_t));
    sl_memo_entry *entries = room > (1u << 28) ? NULL : PyMem_Malloc(bytes);
    if (entries == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (table->used > 0) {
        memcpy(entries, table->entries, table->used * sizeof(sl_memo_entry));
    }
    PyMem_Free(table->entries);
    table->entries = entries;
    table->index = (uint32_t *)(entries + room);
    memset(table->index, 0, (size_t)room * 2 * sizeof(uint32_t));
    table->room = room;
    table->mask = (size_t)room * 2 - 1;
    for (uint32_t i = 0; i < table->used; i++) {
        *sl_memo_slot(table, entries[i].value, entries[i].function) = i + 1;
    }
    return 0;
}

/* A memoized fast function: what memo_runtime._memo_lean's unscoped wrapper does, without its
   Python frame, on the C table of the running call. The wrapper's level and the function's each
   count one, as the pure module's two frames do (`from_python`: the wrapper's is counted
   already, as CPython counts the call of a C function; the function's, by `call`, checks the C
   stack too), and a hit two more while it runs, as the wrapper's key comparison is counted. With no table (called other than through a public function) the pure wrapper is
   called: it makes one. 1, 0, or -1 with an exception set. */
static int sl_memo_lean(PyObject *x, sl_fast call, int function, PyObject *wrapper,
                        int from_python, const straightline_stack *stack) {
    sl_memo *table = sl_memo_now;
    if (table == NULL) {
        return sl_call_pure(wrapper, x);
    }
    if (!from_python && Py_EnterRecursiveCall(" in is_valid")) {
        return -1;
    }
    int result;
    uint32_t *slot = table->room == 0 ? NULL : sl_memo_slot(table, x, function);
    if (slot != NULL && *slot != 0) {
        /* (the wrapper's look-up compares its key with the entry's, two tuples, which
           compares two id ints: two levels CPython counts while they run; on a miss the
           function's level stands for the one its `id(x)` counts) */
        int deep = Py_EnterRecursiveCall(" in comparison");
        if (!deep) {
            deep = sl_counted();
            Py_LeaveRecursiveCall();
        }
        result = deep ? -1 : table->entries[*slot - 1].answer;
    } else {
        uint32_t *index = table->index;
        table->holders++;  /* (held through the call, whatever the thread runs meanwhile) */
        result = call(x, stack);
        if (table->holders == 1) {  /* (its owner returned meanwhile: nothing to keep) */
            sl_memo_let_go(table);
        } else if (--table->holders, result >= 0) {
            /* (the slot found before if the index is the same and it is still empty: the
               first empty one of the key's probe, as no entry leaves the table) */
            if (table->used == table->room && sl_memo_grow(table) < 0) {
                result = -1;
            } else {
                if (slot == NULL || table->index != index || *slot != 0) {
                    slot = sl_memo_slot(table, x, function);
                }
                if (*slot == 0) {
                    table->entries[table->used] = (sl_memo_entry){Py_NewRef(x), function, 0};
                    *slot = ++table->used;
                }
                /* (as the wrapper's `table[key] = ...`: the last answer) */
                table->entries[*slot - 1].answer = result;
            }
        }
    }
    if (!from_python) {
        Py_LeaveRecursiveCall();
    }
    return result;
}

/* A fresh table for a call that owns one, made the running call's (sl_memo_now); NULL with
   MemoryError set. sl_memo_close puts back the table it replaced (`outer`). */
static sl_memo *sl_memo_open(void) {
    sl_memo *table = PyMem_Calloc(1, sizeof(sl_memo));
    if (table == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    table->holders = 1;
    sl_memo_now = table;
    return table;
}

static void sl_memo_close(sl_memo *table, sl_memo *outer) {
    sl_memo_now = outer;
    sl_memo_let_go(table);
}

/* memo_runtime._memo_owned(run, args): run(*args) with a fresh C table in sl_memo_now, the
   outer call's again on the way out. The Python wrappers' dict (the error path's) is the
   table's too, made when a wrapper first reads `_MEMO.table` (sl_memo_state below): an is_valid
   that runs only C makes none, and touches no thread-local Python object. A C function of
   variable arguments, which CPython counts as one level on every path, as the pure function's
   frame is counted. */
static PyObject *sl_memo_owned(PyObject *arguments) {
    PyObject *run, *run_arguments;
    if (!PyArg_UnpackTuple(arguments, "_memo_owned", 2, 2, &run, &run_arguments)) {
        return NULL;
    }
    sl_memo *outer_table = sl_memo_now;
    sl_memo *table = sl_memo_open();
    if (table == NULL) {
        return NULL;
    }
    PyObject *result;
    if (PyTuple_Check(run_arguments)) {
        result = PyObject_Call(run, run_arguments, NULL);
    } else {  /* (`*args` of another iterable) */
        PyObject *unpacked = PySequence_Tuple(run_arguments);
        result = unpacked == NULL ? NULL : PyObject_Call(run, unpacked, NULL);
        Py_XDECREF(unpacked);
    }
    sl_memo_close(table, outer_table);
    return result;
}

/* A public is_valid of templates/api.py.j2's shape (c_module.py's PublicIsValid) in C, without
   its Python frame: the root called (through the owner of a fresh table: `owned`) at the depth
   the pure function calls it (the owner's level, then the root's call's: `call` counts it), and
   a RecursionError answered by `on_fresh_stack(deep, x)`, as the pure one answers it. CPython
   counts this call's level as it counts the pure function's frame. */
static PyObject *sl_public_is_valid(PyObject *x, sl_fast call, int owned,
                                    PyObject *on_fresh_stack, PyObject *deep) {
    int valid = -1;
    const straightline_stack *stack = straightline_thread_stack();
    if (!owned) {
        valid = call(x, stack);
    } else if (!Py_EnterRecursiveCall(" while calling a Python object")) {
        sl_memo *outer_table = sl_memo_now;
        sl_memo *table = sl_memo_open();
        if (table != NULL) {
            valid = call(x, stack);
            sl_memo_close(table, outer_table);
        }
        Py_LeaveRecursiveCall();
    }
    if (valid >= 0) {
        return Py_NewRef(valid ? Py_True : Py_False);
    }
    if (!PyErr_ExceptionMatches(PyExc_RecursionError)) {
        return NULL;
    }
    PyErr_Clear();
    PyObject *answer = PyObject_CallFunctionObjArgs(on_fresh_stack, deep, x, NULL);
    if (answer == NULL) {
        return NULL;
    }
    int truth = PyObject_IsTrue(answer);
    Py_DECREF(answer);
    return truth < 0 ? NULL : Py_NewRef(truth ? Py_True : Py_False);
}

/* The module's `_MEMO` where its owner is C: `table` reads the running call's dict (made at
   the first read), None between calls, as memo_runtime's thread-local slot gives it. */
static PyObject *sl_memo_state_table(PyObject *self, void *closure) {
    sl_memo *table = sl_memo_now;
    if (table == NULL) {
        Py_RETURN_NONE;
    }
    if (table->python_table == NULL && (table->python_table = PyDict_New()) == NULL) {
        return NULL;
    }
    return Py_NewRef(table->python_table);
}

static PyGetSetDef sl_memo_state_getset[] = {
    {"table", sl_memo_state_table, NULL, "the running call's table, or None", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot sl_memo_state_slots[] = {
    {Py_tp_getset, sl_memo_state_getset}, {0, NULL}};

static PyType_Spec sl_memo_state_spec = {
    "straightline._MemoState", 0, 0, Py_TPFLAGS_DEFAULT, sl_memo_state_slots};

/* `_MEMO` in the module's dict replaced by the C state. 0, or -1 with an exception set. */
static int sl_install_memo_state(PyObject *dict) {
    PyObject *type = PyType_FromSpec(&sl_memo_state_spec);
    if (type == NULL) {
        return -1;
    }
    PyObject *state = PyObject_CallNoArgs(type);
    Py_DECREF(type);
    int failed = state == NULL || PyDict_SetItemString(dict, "_MEMO", state) < 0;
    Py_XDECREF(state);
    return failed ? -1 : 0;
}

static void sl_unbound(const char *name) {
    PyErr_Format(PyExc_UnboundLocalError, "local variable '%s' referenced before assignment", name);
}

/* `left OP right` as a truth value (Python's operator: no identity shortcut), 0/1, -1 on error.
   Two exact ints, two exact floats or two exact strs are compared by their type's own
   comparison; anything else through PyObject_RichCompare. */
static int sl_compare(PyObject *left, PyObject *right, int op) {
    PyObject *result;
    if ((op == Py_EQ || op == Py_NE) && Py_IS_TYPE(left, &PyUnicode_Type)
        && Py_IS_TYPE(right, &PyUnicode_Type) && PyUnicode_IS_COMPACT(left)
        && PyUnicode_IS_COMPACT(right)) {
        /* two exact strs: equal by their code units, as str's own comparison reads them (a str
           is kept in the narrowest kind that holds it, so strs of two kinds differ) */
        Py_ssize_t length = PyUnicode_GET_LENGTH(left);
        int kind = PyUnicode_KIND(left);
        int same = left == right
            || (length == PyUnicode_GET_LENGTH(right) && kind == PyUnicode_KIND(right)
                && memcmp(PyUnicode_DATA(left), PyUnicode_DATA(right), (size_t)length * kind) == 0);
        return op == Py_EQ ? same : !same;
    }
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

/* A dict's item by a str key whose hash is known (computed once at init): borrowed, or NULL
   (with an exception set only where the look-up raised). */
#if PY_VERSION_HEX < 0x030D0000
#define sl_dict_find(d, key, hash) _PyDict_GetItem_KnownHash((d), (key), (hash))
#define sl_dict_has(d, key, hash) _PyDict_Contains_KnownHash((d), (key), (hash))
#else
#define sl_dict_find(d, key, hash) PyDict_GetItemWithError((d), (key))
#define sl_dict_has(d, key, hash) PyDict_Contains((d), (key))
#endif

/* A dict's version (3.11: ma_version_tag, changed by every change of the dict): what a
   PyDict_Next pass's items are valid for. Without one (3.12 deprecates it), no pass. */
#if PY_VERSION_HEX < 0x030C0000
#define SL_PREFETCH 1
#define SL_DICT_VERSION(d) (((PyDictObject *)(d))->ma_version_tag)
#else
#define SL_PREFETCH 0
#define SL_DICT_VERSION(d) ((uint64_t)0)
#endif

/* Whether `k` is a str whose text alone says which str constant it equals (an exact str: a
   subclass's __eq__ and __hash__ may answer otherwise), in a form the find functions read. */
static inline int sl_str_key(PyObject *k) {
    return PyUnicode_CheckExact(k) && PyUnicode_IS_COMPACT(k);
}

/* A module-level table the fast path looks up by a run-time key and calls what it finds (a
   property table's pairs, a dispatch table's functions; c_module.py's CTable), read in C:
   `find` gives the number of the key an exact str equals, from its text. At init, once the C
   functions are in the table, sl_table_ready keeps its values as `entries` and records its
   version, only where it holds exactly the keys `find` knows, each once (else the version
   stays 0: never read in C). A look-up reads the entries while the table's version is that one
   (sl_table_key): a table changed since, a key that is not an exact str (its own __eq__ and
   __hash__ answer), or Python 3.12+ (no dict version) is looked up as the dict's `get`. */
#define SL_TABLES SL_PREFETCH
static void sl_table_ready(PyObject *table, Py_ssize_t count, Py_ssize_t (*find)(PyObject *),
                           PyObject **entries, uint64_t *version) {
    *version = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_CLEAR(entries[i]);
    }
    if (!SL_TABLES || !PyDict_CheckExact(table) || PyDict_GET_SIZE(table) != count) {
        return;
    }
    Py_ssize_t position = 0, read = 0;
    PyObject *key, *value;
    while (PyDict_Next(table, &position, &key, &value)) {
        Py_ssize_t i = sl_str_key(key) ? find(key) : -1;
        if (i < 0 || i >= count || entries[i] != NULL) {
            break;
        }
        entries[i] = Py_NewRef(value);
        read++;
    }
    if (read == count) {
        *version = SL_DICT_VERSION(table);
        return;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_CLEAR(entries[i]);
    }
}

/* Whether `k` is looked up in C in `table`, read at init with `version`. */
static inline int sl_table_key(PyObject *table, uint64_t version, PyObject *k) {
    return SL_TABLES && version != 0 && SL_DICT_VERSION(table) == version && sl_str_key(k);
}

/* `d[key]` of an exact dict and a str constant: a new reference; a missing key raises KeyError
   as the dict's subscript does. */
static PyObject *sl_dict_item(PyObject *d, PyObject *key, Py_hash_t hash) {
    PyObject *found = sl_dict_find(d, key, hash);
    if (found != NULL) {
        return Py_NewRef(found);
    }
    return PyErr_Occurred() ? NULL : PyObject_GetItem(d, key);
}

/* `a[i]` of an exact list and a small index: a new reference (out of range: IndexError). */
static PyObject *sl_list_item(PyObject *a, Py_ssize_t i, PyObject *index) {
    if (i < PyList_GET_SIZE(a)) {
        return Py_NewRef(PyList_GET_ITEM(a, i));
    }
    return PyObject_GetItem(a, index);
}

/* `value OP c`, c a small int literal (|c| < 2**53), `constant` the same int as an object: an
   exact int of one digit or an exact float compared in C, as the interpreter's specialised
   comparison does (a float against an int is a generic comparison there: counted); anything
   else as sl_compare. 0/1, -1 on error. */
static int sl_compare(PyObject *left, PyObject *right, int op);
static inline int sl_compare_c(double a, double b, int op) {
    switch (op) {
        case Py_EQ: return a == b;
        case Py_NE: return a != b;
        case Py_LT: return a < b;
        case Py_LE: return a <= b;
        case Py_GT: return a > b;
        default: return a >= b;
    }
}
static inline int sl_compare_ll(long long a, long long b, int op) {
    switch (op) {
        case Py_EQ: return a == b;
        case Py_NE: return a != b;
        case Py_LT: return a < b;
        case Py_LE: return a <= b;
        case Py_GT: return a > b;
        default: return a >= b;
    }
}
static int sl_compare_small(PyObject *value, long long c, PyObject *constant, int op) {
    if (Py_IS_TYPE(value, &PyLong_Type)) {
#if PY_VERSION_HEX < 0x030C0000
        Py_ssize_t size = Py_SIZE(value);
        if (size >= -1 && size <= 1) {
            long long digit = (long long)((PyLongObject *)value)->ob_digit[0];
            return sl_compare_ll(size * digit, c, op);
        }
#else
        int overflow = 0;
        long long held = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (!overflow && !(held == -1 && PyErr_Occurred())) {
            return sl_compare_ll(held, c, op);
        }
        PyErr_Clear();
#endif
    } else if (Py_IS_TYPE(value, &PyFloat_Type)) {
        if (sl_counted()) {
            return -1;
        }
        return sl_compare_c(PyFloat_AS_DOUBLE(value), (double)c, op);
    }
    return sl_compare(value, constant, op);
}

/* `value OP c`, c a float literal: an exact float compared in C (the interpreter's
   specialised float comparison); anything else as sl_compare. */
static int sl_compare_double(PyObject *value, double c, PyObject *constant, int op) {
    if (Py_IS_TYPE(value, &PyFloat_Type)) {
        return sl_compare_c(PyFloat_AS_DOUBLE(value), c, op);
    }
    return sl_compare(value, constant, op);
}

/* `key in s`, s a frozenset: PySet_Contains, which (unlike the `in` operator) does not retry an
   unhashable set as a frozenset: that case goes through PySequence_Contains. */
static int sl_set_contains(PyObject *s, PyObject *key) {
    int found = PySet_Contains(s, key);
    if (found < 0 && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        found = PySequence_Contains(s, key);
    }
    return found;
}

/* `type(x) in S`, S a module-level frozenset of built-in types whose bits (SL_TYPE_*) are `mask`:
   a type whose own type is exactly `type` compares as its identity, so it is one of S's when it is
   one of their pointers; any other (a metaclass may define its own == and hash) is looked up in S
   as the interpreter would. One function, not a test at each use: most uses are on the way to a
   failure (docs/native.md, "Smaller C"). */
#define SL_TYPE_BOOL 1u
#define SL_TYPE_DICT 2u
#define SL_TYPE_FLOAT 4u
#define SL_TYPE_INT 8u
#define SL_TYPE_LIST 16u
#define SL_TYPE_STR 32u
#define SL_TYPE_TUPLE 64u
#define SL_TYPE_TYPE 128u
#define SL_TYPE_NONE 256u
static int sl_builtin_type_in(PyObject *type, unsigned mask, PyObject *set) {
    unsigned bit;
    if (!Py_IS_TYPE(type, &PyType_Type)) {
        return sl_set_contains(set, type);
    }
    if (type == (PyObject *)&PyBool_Type) bit = SL_TYPE_BOOL;
    else if (type == (PyObject *)&PyDict_Type) bit = SL_TYPE_DICT;
    else if (type == (PyObject *)&PyFloat_Type) bit = SL_TYPE_FLOAT;
    else if (type == (PyObject *)&PyLong_Type) bit = SL_TYPE_INT;
    else if (type == (PyObject *)&PyList_Type) bit = SL_TYPE_LIST;
    else if (type == (PyObject *)&PyUnicode_Type) bit = SL_TYPE_STR;
    else if (type == (PyObject *)&PyTuple_Type) bit = SL_TYPE_TUPLE;
    else if (type == (PyObject *)&PyType_Type) bit = SL_TYPE_TYPE;
    else if (type == (PyObject *)Py_TYPE(Py_None)) bit = SL_TYPE_NONE;
    else return 0;
    return (mask & bit) != 0;
}

/* `if f(a, b):` of a call C has no form of its own (the pure module's helpers: `_ok(_e3, x)`): the
   truth of the call's result, which is released at once, as the interpreter releases it after
   the test. 1, 0, or -1 with an exception set. */
static int sl_call_truth(PyObject *callee, PyObject *const *arguments, size_t count) {
    PyObject *result = PyObject_Vectorcall(callee, arguments, count, NULL);
    if (result == NULL) {
        return -1;
    }
    int truth = PyObject_IsTrue(result);
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

/* `d.get(key)`: a new reference. */
static PyObject *sl_dict_get1(PyObject *d, PyObject *key, PyObject *name) {
    if (Py_IS_TYPE(d, &PyDict_Type)) {
        PyObject *found = PyDict_GetItemWithError(d, key);
        if (found == NULL) {
            return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);
        }
        return Py_NewRef(found);
    }
    PyObject *arguments[2] = {d, key};
    return sl_method(name, arguments, 2);
}

/* `a[i]`, i a small non-negative int literal: an exact list's or tuple's item in place (out of
   range: IndexError as the subscript raises it); anything else through PyObject_GetItem. */
static PyObject *sl_item_small(PyObject *a, Py_ssize_t i, PyObject *index) {
    if (Py_IS_TYPE(a, &PyTuple_Type) && i < PyTuple_GET_SIZE(a)) {
        return Py_NewRef(PyTuple_GET_ITEM(a, i));
    }
    if (Py_IS_TYPE(a, &PyList_Type) && i < PyList_GET_SIZE(a)) {
        return Py_NewRef(PyList_GET_ITEM(a, i));
    }
    return PyObject_GetItem(a, index);
}

/* Python's own hashes of a 2-tuple and of a frozenset (Objects/tupleobject.c's tuplehash and
   Objects/setobject.c's frozenset_hash, unchanged from 3.8 to 3.13), from their items' hashes:
   which two objects a set would compare (a set compares two keys only when their hashes are
   equal). Checked against the real hashes before first use (sl_set_hashes_hold). */
#define SL_XXPRIME_1 ((Py_uhash_t)11400714785074694791ULL)
#define SL_XXPRIME_2 ((Py_uhash_t)14029467366897019727ULL)
#define SL_XXPRIME_5 ((Py_uhash_t)2870177450012600261ULL)
static inline Py_uhash_t sl_pair_hash(Py_uhash_t first, Py_uhash_t second) {
    Py_uhash_t acc = SL_XXPRIME_5;
    acc += first * SL_XXPRIME_2;
    acc = (acc << 31) | (acc >> 33);
    acc *= SL_XXPRIME_1;
    acc += second * SL_XXPRIME_2;
    acc = (acc << 31) | (acc >> 33);
    acc *= SL_XXPRIME_1;
    acc += 2 ^ (SL_XXPRIME_5 ^ 3527539UL);
    return acc == (Py_uhash_t)-1 ? 1546275796 : acc;
}
static inline Py_uhash_t sl_shuffle_bits(Py_uhash_t h) {
    return ((h ^ 89869747UL) ^ (h << 16)) * 3644798167UL;
}
/* `shuffled`: the xor of sl_shuffle_bits of each member's hash; `size`: the member count. */
static Py_uhash_t sl_frozenset_hash(Py_uhash_t shuffled, Py_ssize_t size) {
    Py_uhash_t hash = shuffled ^ (((Py_uhash_t)size + 1) * 1927868237UL);
    hash ^= (hash >> 11) ^ (hash >> 25);
    hash = hash * 69069U + 907133923UL;
    return hash == (Py_uhash_t)-1 ? 590923713UL : hash;
}

/* 1 where the hashes above are this Python's (a frozenset of two pairs hashed both ways), 0
   where not or not known (the pure function is called then). Checked once (per unit). */
static int sl_set_hashes_checked = 0;
static int sl_set_hashes_hold(void) {
#if SIZEOF_PY_UHASH_T == 8 && PY_VERSION_HEX >= 0x03080000
    if (sl_set_hashes_checked == 0) {
        PyObject *a = PyUnicode_FromString("sl_a"), *b = PyUnicode_FromString("sl_b");
        PyObject *first = a && b ? PyTuple_Pack(2, a, b) : NULL;
        PyObject *second = a && b ? PyTuple_Pack(2, b, a) : NULL;
        PyObject *set = first && second ? PyFrozenSet_New(NULL) : NULL;
        int held = 0;
        if (set != NULL && PySet_Add(set, first) == 0 && PySet_Add(set, second) == 0) {
            Py_uhash_t ha = (Py_uhash_t)PyObject_Hash(a), hb = (Py_uhash_t)PyObject_Hash(b);
            Py_uhash_t h1 = sl_pair_hash(ha, hb), h2 = sl_pair_hash(hb, ha);
            held = h1 == (Py_uhash_t)PyObject_Hash(first) && h2 == (Py_uhash_t)PyObject_Hash(second)
                   && sl_frozenset_hash(sl_shuffle_bits(h1) ^ sl_shuffle_bits(h2), 2)
                          == (Py_uhash_t)PyObject_Hash(set);
        }
        if (PyErr_Occurred()) {
            PyErr_Clear();  /* (not known: checked again next time) */
        } else {
            sl_set_hashes_checked = held ? 1 : -1;
        }
        Py_XDECREF(set);
        Py_XDECREF(second);
        Py_XDECREF(first);
        Py_XDECREF(b);
        Py_XDECREF(a);
    }
    return sl_set_hashes_checked == 1;
#else
    return 0;
#endif
}

/* An exact str's hash: the one it keeps once computed (never -1 then, and never a call). */
static inline Py_uhash_t sl_str_hash(PyObject *text) {
    Py_hash_t hash = ((PyASCIIObject *)text)->hash;
    return (Py_uhash_t)(hash != -1 ? hash : PyObject_Hash(text));
}

static int sl_hash_order(const void *left, const void *right) {
    Py_uhash_t a = *(const Py_uhash_t *)left, b = *(const Py_uhash_t *)right;
    return a < b ? -1 : a > b;
}

/* Whether n hashes are pairwise different (a scratch array: sorted in place when long). */
static int sl_hashes_differ(Py_uhash_t *hashes, Py_ssize_t n) {
    if (n <= 16) {
        for (Py_ssize_t i = 0; i < n; i++) {
            for (Py_ssize_t j = i + 1; j < n; j++) {
                if (hashes[i] == hashes[j]) {
                    return 0;
                }
            }
        }
        return 1;
    }
    qsort(hashes, (size_t)n, sizeof(Py_uhash_t), sl_hash_order);
    for (Py_ssize_t i = 1; i < n; i++) {
        if (hashes[i - 1] == hashes[i]) {
            return 0;
        }
    }
    return 1;
}

/* The pure `_unique`'s answer for an exact list of n >= 2 exact dicts, where it is True at its
   first test: the "shapes" (each item's frozenset of its (key, str value) pairs) pairwise
   different. Its sets compare two pairs or two shapes only where their hashes are equal (a
   comparison counts recursion levels, and may call a str subclass), so: 1 where every key is an
   exact str, every value of an exact JSON type, and no two pairs of an item nor two shapes have
   equal hashes (no comparison made: the pure function answers True, its sets never compared);
   0 where anything else (the pure function must run). */
static int sl_shapes_differ(PyObject *items, Py_ssize_t n) {
    Py_uhash_t shapes_here[16], members_here[16];
    Py_uhash_t *shapes = n <= 16 ? shapes_here : PyMem_Malloc((size_t)n * sizeof(Py_uhash_t));
    Py_uhash_t *members = members_here;
    Py_ssize_t room = 16;
    int differ = shapes != NULL;
    for (Py_ssize_t i = 0; i < n && differ; i++) {
        PyObject *item = PyList_GET_ITEM(items, i), *key, *value;
        if (PyDict_GET_SIZE(item) > room) {
            if (members != members_here) {
                PyMem_Free(members);
            }
            room = PyDict_GET_SIZE(item);
            members = PyMem_Malloc((size_t)room * sizeof(Py_uhash_t));
            if (members == NULL) {
                differ = 0;
                break;
            }
        }
        Py_ssize_t position = 0, count = 0;
        Py_uhash_t shuffled = 0;
        while (PyDict_Next(item, &position, &key, &value)) {
            PyTypeObject *type = Py_TYPE(value);
            if (!PyUnicode_CheckExact(key)) {
                differ = 0;
                break;
            }
            if (type == &PyUnicode_Type) {
                Py_uhash_t pair = sl_pair_hash(sl_str_hash(key), sl_str_hash(value));
                members[count++] = pair;
                shuffled ^= sl_shuffle_bits(pair);
            } else if (!(type == &PyLong_Type || type == &PyFloat_Type || type == &PyBool_Type
                         || value == Py_None || type == &PyDict_Type || type == &PyList_Type)) {
                differ = 0; /* (isinstance(value, str) may be a subclass's, or __class__'s) */
                break;
            }
        }
        if (differ) {
            differ = sl_hashes_differ(members, count);
            shapes[i] = sl_frozenset_hash(shuffled, count);
        }
    }
    if (differ) {
        differ = sl_hashes_differ(shapes, n);
    }
    if (members != members_here) {
        PyMem_Free(members);
    }
    if (shapes != shapes_here) {
        PyMem_Free(shapes);
    }
    return differ;
}

/* The pure module's `_unique(items)` (no two items JSON-equal) where items is an exact list of
   fewer than two items (True), of exact strs (JSON equality is then str equality), or of exact
   dicts whose shapes differ (sl_shapes_differ: True). The levels the pure function's run
   reaches are counted: its frame, and for dicts the calls it makes of C methods (`item.items()`,
   `shapes.add()`) one level further. Anything else: the pure function. 0/1, -1 on error. */
static int sl_unique(PyObject *items, PyObject *pure) {
    if (Py_IS_TYPE(items, &PyList_Type)) {
        Py_ssize_t n = PyList_GET_SIZE(items);
        if (n < 2) {
            return sl_counted() ? -1 : 1;
        }
        int plain = 1, dicts = 1;
        for (Py_ssize_t i = 0; i < n && (plain || dicts); i++) {
            PyObject *item = PyList_GET_ITEM(items, i);
            plain = plain && PyUnicode_CheckExact(item);
            dicts = dicts && PyDict_CheckExact(item);
        }
        if (plain) {
            if (sl_counted()) {
                return -1;
            }
            if (n <= 8) {
                for (Py_ssize_t i = 0; i < n; i++) {
                    for (Py_ssize_t j = i + 1; j < n; j++) {
                        int same = PyUnicode_Compare(PyList_GET_ITEM(items, i), PyList_GET_ITEM(items, j));
                        if (same == -1 && PyErr_Occurred()) {
                            return -1;
                        }
                        if (same == 0) {
                            return 0;
                        }
                    }
                }
                return 1;
            }
            PyObject *seen = PySet_New(items);
            if (seen == NULL) {
                return -1;
            }
            int unique = PySet_GET_SIZE(seen) == n;
            Py_DECREF(seen);
            return unique;
        }
        if (dicts && sl_set_hashes_hold() && sl_shapes_differ(items, n)) {
            if (Py_EnterRecursiveCall(" while calling a Python object")) {
                return -1;
            }
            int counted = sl_counted();
            Py_LeaveRecursiveCall();
            return counted ? -1 : 1;
        }
    }
    return sl_call_pure(pure, items);
}

/* `d.get(key, default)`, key a str constant of known hash: a new reference. */
static PyObject *sl_dict_get_known(PyObject *d, PyObject *key, Py_hash_t hash, PyObject *fallback,
                                   PyObject *name) {
    if (Py_IS_TYPE(d, &PyDict_Type)) {
        PyObject *found = sl_dict_find(d, key, hash);
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

/* `s.endswith(suffix)`. */
static int sl_endswith(PyObject *s, PyObject *suffix, PyObject *name) {
    if (Py_IS_TYPE(s, &PyUnicode_Type) && Py_IS_TYPE(suffix, &PyUnicode_Type)) {
        if (sl_counted()) {
            return -1;
        }
        Py_ssize_t found = PyUnicode_Tailmatch(s, suffix, 0, PY_SSIZE_T_MAX, 1);
        return found < 0 ? -1 : (int)found;
    }
    PyObject *arguments[2] = {s, suffix};
    return sl_method_truth(name, arguments, 2);
}

/* `s.isprintable()`: an exact str read in place, counting the level CPython counts for the
   method's call; an ASCII one is printable where every character is 0x20 to 0x7E, any other
   where Py_UNICODE_ISPRINTABLE (str.isprintable's test) holds of every code point. Anything
   else (a subclass may override the method) calls it. */
static int sl_isprintable(PyObject *s, PyObject *name) {
    if (!Py_IS_TYPE(s, &PyUnicode_Type)) {
        PyObject *arguments[1] = {s};
        return sl_method_truth(name, arguments, 1);
    }
    if (sl_counted()) {
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(s) < 0) {
        return -1;
    }
#endif
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    if (PyUnicode_IS_ASCII(s)) {
        const Py_UCS1 *text = PyUnicode_1BYTE_DATA(s);
        for (Py_ssize_t i = 0; i < n; i++) {
            if ((Py_UCS1)(text[i] - 0x20) > 0x7E - 0x20) {
                return 0;
            }
        }
        return 1;
    }
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!Py_UNICODE_ISPRINTABLE(PyUnicode_READ(kind, data, i))) {
            return 0;
        }
    }
    return 1;
}

/* The ASCII classes of regex/simple.py's str tests (sl_str_class). */
enum { SL_ISDIGIT, SL_ISALPHA, SL_ISALNUM, SL_ISLOWER, SL_ISUPPER };

/* `s.isdigit()`, `isalpha()`, `isalnum()`, `islower()`, `isupper()` (`test` which): an exact
   ASCII str read in place, as CPython's ASCII paths of these methods read it (counting the
   level CPython counts for the call); any other value calls the method (a non-ASCII str's
   classes are Unicode's, a subclass may override it). */
static int sl_str_class(PyObject *s, int test, PyObject *name) {
    if (!Py_IS_TYPE(s, &PyUnicode_Type) || !PyUnicode_IS_COMPACT_ASCII(s)) {
        PyObject *arguments[1] = {s};
        return sl_method_truth(name, arguments, 1);
    }
    if (sl_counted()) {
        return -1;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    const Py_UCS1 *text = PyUnicode_1BYTE_DATA(s);
    int small = 0, capital = 0; /* (a lower case letter seen, an upper case one) */
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS1 c = text[i];
        int digit = c >= '0' && c <= '9';
        int lower = c >= 'a' && c <= 'z', upper = c >= 'A' && c <= 'Z';
        if ((test == SL_ISDIGIT && !digit) || (test == SL_ISALPHA && !lower && !upper)
            || (test == SL_ISALNUM && !digit && !lower && !upper)
            || (test == SL_ISLOWER && upper) || (test == SL_ISUPPER && lower)) {
            return 0;
        }
        small |= lower;
        capital |= upper;
    }
    /* (empty: False for each; islower and isupper need a letter of their case) */
    return test == SL_ISLOWER ? small : test == SL_ISUPPER ? capital : n > 0;
}

static int sl_isdigit(PyObject *s, PyObject *name) {
    return sl_str_class(s, SL_ISDIGIT, name);
}

static int sl_isalpha(PyObject *s, PyObject *name) {
    return sl_str_class(s, SL_ISALPHA, name);
}

static int sl_isalnum(PyObject *s, PyObject *name) {
    return sl_str_class(s, SL_ISALNUM, name);
}

static int sl_islower(PyObject *s, PyObject *name) {
    return sl_str_class(s, SL_ISLOWER, name);
}

static int sl_isupper(PyObject *s, PyObject *name) {
    return sl_str_class(s, SL_ISUPPER, name);
}

/* `c in s`, `c` a str literal of one character whose code point is `ch`: an exact str searched
   in place (what str's `in` does with one character); anything else as `in` asks it. */
static int sl_str_has_char(PyObject *s, Py_UCS4 ch, PyObject *c) {
    if (Py_IS_TYPE(s, &PyUnicode_Type)) {
        Py_ssize_t found = PyUnicode_FindChar(s, ch, 0, PY_SSIZE_T_MAX, 1);
        return found == -2 ? -1 : found >= 0;
    }
    return PySequence_Contains(s, c);
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
    if (Py_IS_TYPE(item, &PyList_Type) && PyList_GET_SIZE(item) == count) {
        return PyList_AsTuple(item);  /* (what UNPACK_SEQUENCE takes from an exact list) */
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
                    Py_hash_t *hashes, const char *const *constant_texts, PyObject **names,
                    const char *const *name_texts) {
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
        hashes[i] = -1;
        if (PyUnicode_CheckExact(constants[i])) {
            /* (interned: a key equal to it in a dict is found by its pointer first) */
            PyUnicode_InternInPlace(&constants[i]);
            hashes[i] = PyObject_Hash(constants[i]);
            if (hashes[i] == -1) {
                return -1;
            }
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

/* `value` with each pure function `compiled` maps replaced by its C function: a dict or list in
   place (and its items, one level further), a tuple as a new tuple where it changes; a new
   reference, or NULL with an exception set. The tables a fast path calls through (a dispatch
   by a discriminator's value, a property table's pairs) then call the C functions too. */
static PyObject *sl_swap(PyObject *value, PyObject *compiled, int depth) {
    PyObject *found = PyDict_GetItemWithError(compiled, value);
    if (found != NULL) {
        return Py_NewRef(found);
    }
    if (PyErr_Occurred()) {
        PyErr_Clear();  /* (an unhashable value: no function) */
    }
    if (depth > 2) {
        return Py_NewRef(value);
    }
    if (PyDict_CheckExact(value)) {
        Py_ssize_t position = 0;
        PyObject *key, *item;
        while (PyDict_Next(value, &position, &key, &item)) {
            PyObject *swapped = sl_swap(item, compiled, depth + 1);
            if (swapped == NULL) {
                return NULL;
            }
            int failed = swapped != item && PyDict_SetItem(value, key, swapped) < 0;  /* (no key added) */
            Py_DECREF(swapped);
            if (failed) {
                return NULL;
            }
        }
        return Py_NewRef(value);
    }
    if (PyList_CheckExact(value) || PyTuple_CheckExact(value)) {
        int is_list = PyList_CheckExact(value);
        Py_ssize_t size = is_list ? PyList_GET_SIZE(value) : PyTuple_GET_SIZE(value);
        PyObject *copy = NULL;
        for (Py_ssize_t i = 0; i < size; i++) {
            PyObject *item = is_list ? PyList_GET_ITEM(value, i) : PyTuple_GET_ITEM(value, i);
            PyObject *swapped = sl_swap(item, compiled, depth + 1);
            if (swapped == NULL) {
                Py_XDECREF(copy);
                return NULL;
            }
            if (swapped == item) {
                Py_DECREF(swapped);
                continue;
            }
            if (is_list) {
                PyList_SetItem(value, i, swapped);  /* (steals the reference) */
                continue;
            }
            if (copy == NULL) {
                copy = PyTuple_GetSlice(value, 0, size);
                if (copy == NULL) {
                    Py_DECREF(swapped);
                    return NULL;
                }
            }
            PyObject *old = PyTuple_GET_ITEM(copy, i);
            PyTuple_SET_ITEM(copy, i, swapped);
            Py_DECREF(old);
        }
        return copy != NULL ? copy : Py_NewRef(value);
    }
    return Py_NewRef(value);
}

/* Each C fast function in place of the pure one: under every module-level name that holds it,
   and in the module-level tables (sl_swap). */
static int sl_install(PyObject *module, PyObject *dict, PyMethodDef *methods) {
    PyObject *module_name = PyModule_GetNameObject(module);
    PyObject *compiled = PyDict_New();
    int status = -1;
    if (module_name == NULL || compiled == NULL) {
        goto done;
    }
    for (PyMethodDef *method = methods; method->ml_name != NULL; method++) {
        PyObject *pure = PyDict_GetItemString(dict, method->ml_name);
        if (pure == NULL) {
            continue;
        }
        PyObject *function = PyCFunction_NewEx(method, module, module_name);
        int failed = function == NULL || PyDict_SetItem(compiled, pure, function) < 0;
        Py_XDECREF(function);
        if (failed) {
            goto done;
        }
    }
    PyObject *keys = PyDict_Keys(dict);
    if (keys == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(keys); i++) {
        PyObject *key = PyList_GET_ITEM(keys, i);
        PyObject *value = PyDict_GetItemWithError(dict, key);
        if (value == NULL) {
            continue;
        }
        PyObject *swapped = sl_swap(value, compiled, 1);
        int failed = swapped == NULL || (swapped != value && PyDict_SetItem(dict, key, swapped) < 0);
        Py_XDECREF(swapped);
        if (failed) {
            Py_DECREF(keys);
            goto done;
        }
    }
    Py_DECREF(keys);
    status = 0;
  done:
    Py_XDECREF(compiled);
    Py_XDECREF(module_name);
    return status;
}

/* A pattern's DFA (generator/regex/automaton.py's, as c_module.py writes it): states are
   offsets (state * width) into `cells`, whose entry for (state, class) is the next state, `stop`
   (a match is found) or `stop + 1` (none can be any more); code points below 128 have their
   class in `ascii`, others that of the last interval of `bounds` (the first code point of each,
   from 128 up) at or below them; `at_end[state / width]` says a match ends at the end. The
   search is the pure module's `_dfa_search`: unanchored, over code points (a lone surrogate is
   one, as in a str). */
typedef struct {
    unsigned int start, stop, width;
    Py_ssize_t n_bounds;
    const unsigned short *ascii;
    const Py_UCS4 *bounds;
    const unsigned short *classes;
    const unsigned short *cells;
    const unsigned char *at_end;
} sl_dfa;

static inline unsigned int sl_dfa_class(const sl_dfa *d, Py_UCS4 c) {
    if (c < 128) {
        return d->ascii[c];
    }
    Py_ssize_t low = 0, high = d->n_bounds; /* bounds[low] <= c < bounds[high] */
    while (high - low > 1) {
        Py_ssize_t middle = low + (high - low) / 2;
        if (d->bounds[middle] <= c) {
            low = middle;
        } else {
            high = middle;
        }
    }
    return d->classes[low];
}

#define SL_DFA_LOOP(TYPE)                                                   \
    {                                                                       \
        const TYPE *text = (const TYPE *)data;                              \
        for (Py_ssize_t i = 0; i < n; i++) {                                \
            state = d->cells[state + sl_dfa_class(d, (Py_UCS4)text[i])];    \
            if (state >= d->stop) {                                         \
                return state == d->stop;                                    \
            }                                                               \
        }                                                                   \
        break;                                                              \
    }

/* Whether the DFA's pattern matches somewhere in the str `s` (any str, subclasses too: their
   text is read, no method called): 1, 0, or -1 with an exception set. */
static int sl_dfa_run(PyObject *s, const sl_dfa *d) {
    unsigned int state = d->start;
    if (state >= d->stop) {
        return state == d->stop;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(s) < 0) {
        return -1;
    }
#endif
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    const void *data = PyUnicode_DATA(s);
    switch (PyUnicode_KIND(s)) {
    case PyUnicode_1BYTE_KIND:
        SL_DFA_LOOP(Py_UCS1)
    case PyUnicode_2BYTE_KIND:
        SL_DFA_LOOP(Py_UCS2)
    default:
        SL_DFA_LOOP(Py_UCS4)
    }
    return d->at_end[state / d->width];
}

/* `search(s) is not None`, `search` a compiled pattern's (the pure module's `re`) whose DFA is
   `d`: a str is searched in C, counting the level CPython counts for the call of `search`;
   anything else is `search`'s to answer (or refuse). */
static int sl_pattern_search(PyObject *s, const sl_dfa *d, PyObject *search) {
    if (PyUnicode_Check(s)) {
        if (sl_counted()) {
            return -1;
        }
        return sl_dfa_run(s, d);
    }
    PyObject *found = PyObject_CallOneArg(search, s);
    if (found == NULL) {
        return -1;
    }
    int matched = found != Py_None;
    Py_DECREF(found);
    return matched;
}

/* `_dfa_search(s, table)` (the pure module's matcher, regex/matcher.py) whose table is `d`: an
   exact str is searched in C, counting the two levels the pure function's frame and the calls
   in it take; anything else (a str subclass may iterate as it likes) calls the function. */
static int sl_matcher_search(PyObject *s, const sl_dfa *d, PyObject *function, PyObject *table) {
    if (PyUnicode_CheckExact(s)) {
        if (Py_EnterRecursiveCall(" while calling a Python object")) {
            return -1;
        }
        int matched = sl_counted() ? -1 : sl_dfa_run(s, d);
        Py_LeaveRecursiveCall();
        return matched;
    }
    PyObject *arguments[] = {s, table};
    PyObject *found = PyObject_Vectorcall(function, arguments, 2, NULL);
    if (found == NULL) {
        return -1;
    }
    int truth = PyObject_IsTrue(found);
    Py_DECREF(found);
    return truth;
}

#endif
