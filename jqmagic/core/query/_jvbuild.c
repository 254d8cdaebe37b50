/* Python values made into libjq's jv values in C, so a question the fast path declines over
 * a file it holds starts from the values it holds (no second parse of the file by libjq).
 *
 * Only values whose jv prints, compares and computes as libjq's own parse of the text
 * would are made. libjq keeps a number literal's text; a double made here keeps it too
 * where it is not the double's own: the caller (jvfrom.py) gives the file's odd literals'
 * texts by double (literalfacts: 1.50, 1E+2; a zero by "0.0"/"-0.0"; None: written two
 * ways, refused), a whole float is its literal as written (12.0, -0.0) and an integer
 * beyond 2^53 its digits. A string that is not UTF-8 (a lone surrogate) or a value of
 * another type is refused with ValueError, and the caller parses the file as before.
 * libjq's functions come from the library ctypes loaded, their addresses given once to
 * configure(), as _jqmain.c takes them. The odd texts themselves are learnt from the
 * file's text by _literalscan.h's functions, exported here too.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "_jv.h"
#include "_literalscan.h" /* scan_literals, literals_written: a text's number literals */
#include "_columnread.h"  /* chain_column, zip_objects, joined_chains, iso_dates,
                             group_sums, joined_products: columns of Python values */
#include "_linesread.h"   /* lines_columns: JSON Lines decoded, with columns */
#include "_linespans.h"   /* line_spans, project_lines: JSON Lines held as spans */

static struct {
    jv (*null)(void);
    jv (*true_)(void);
    jv (*false_)(void);
    jv (*number)(double);
    jv (*number_with_literal)(const char *);
    jv (*string_sized)(const char *, int);
    jv (*array_sized)(int);
    jv (*array_append)(jv, jv);
    jv (*object)(void);
    jv (*object_set)(jv, jv, jv);
    void (*free)(jv);
    int (*array_length)(jv);
    jv (*array_get)(jv, int);
    jv (*dump_string)(jv, int);
    const char *(*string_value)(jv);
    int (*string_length_bytes)(jv);
    jv (*copy)(jv);
} lib;
static int configured = 0;
static PyObject *odd_texts = NULL; /* the call's: a dict of literal texts by double */
/* The call's nonzero double keys of odd_texts by their bits (0: an empty slot), so most
 * doubles are built without hashing them for a dict lookup; NULL: look every one up. */
#define KEY_SLOTS 16384
static uint64_t *key_bits = NULL;
static PyObject *zero_keys[2] = {NULL, NULL}; /* "0.0", "-0.0": a zero's key in it */

#define MAX_DEPTH 10000 /* jq's parser's limit */
#define EXACT_INTEGERS 9007199254740992LL /* 2^53: every integer up to it is a double */

static int refuse(const char *why) {
    PyErr_SetString(PyExc_ValueError, why);
    return -1;
}

static int build(PyObject *value, jv *out, int depth);

static int literal(const char *text, jv *out) {
    *out = lib.number_with_literal(text);
    return 0;
}

static uint64_t bits_of(double number) {
    uint64_t bits;
    memcpy(&bits, &number, sizeof bits);
    return bits;
}

static int may_be_odd(double number) {
    if (number == 0.0 || key_bits == NULL) return 1;
    uint64_t bits = bits_of(number);
    for (size_t slot = (bits * 0x9E3779B97F4A7C15ULL) >> 50;; slot = (slot + 1) % KEY_SLOTS) {
        if (key_bits[slot] == bits) return 1;
        if (key_bits[slot] == 0) return 0;
    }
}

/* key_bits made from odd_texts' keys; left NULL where they are too many (or not all
 * doubles and the two zeros' strings) */
static int index_keys(void) {
    PyObject *key, *text;
    Py_ssize_t at = 0;
    if (PyDict_GET_SIZE(odd_texts) > KEY_SLOTS / 4) return 0;
    key_bits = PyMem_Calloc(KEY_SLOTS, sizeof(uint64_t));
    if (key_bits == NULL) return -1;
    while (PyDict_Next(odd_texts, &at, &key, &text)) {
        if (!PyFloat_CheckExact(key) || PyFloat_AS_DOUBLE(key) == 0.0) {
            if (PyUnicode_CheckExact(key)) continue; /* a zero's "0.0", "-0.0" */
            PyMem_Free(key_bits);
            key_bits = NULL;
            return 0;
        }
        uint64_t bits = bits_of(PyFloat_AS_DOUBLE(key));
        size_t slot = (bits * 0x9E3779B97F4A7C15ULL) >> 50;
        while (key_bits[slot] != 0 && key_bits[slot] != bits) slot = (slot + 1) % KEY_SLOTS;
        key_bits[slot] = bits;
    }
    return 0;
}

static int build_float(PyObject *value, jv *out) {
    double number = PyFloat_AS_DOUBLE(value);
    PyObject *key = number == 0.0 ? zero_keys[signbit(number) ? 1 : 0] : value;
    PyObject *text = may_be_odd(number) ? PyDict_GetItemWithError(odd_texts, key) : NULL;
    if (text == NULL && PyErr_Occurred()) return -1;
    if (text == Py_None) return refuse("a double the inputs write two ways");
    if (text != NULL) {
        const char *written = PyUnicode_AsUTF8(text);
        return written == NULL ? -1 : literal(written, out);
    }
    if (number == floor(number) && fabs(number) < (double)EXACT_INTEGERS) {
        char written[40]; /* as the inputs write it: 12.0, -0.0 */
        snprintf(written, sizeof written, "%.1f", number);
        return literal(written, out);
    }
    *out = lib.number(number);
    return 0;
}

static int build_long(PyObject *value, jv *out) {
    int overflow = 0;
    long long whole = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (!overflow && whole <= EXACT_INTEGERS && whole >= -EXACT_INTEGERS) {
        *out = lib.number((double)whole);
        return 0;
    }
    if (PyErr_Occurred()) return -1;
    PyObject *digits = PyObject_Str(value); /* libjq keeps a long literal's digits */
    if (digits == NULL) return -1;
    const char *written = PyUnicode_AsUTF8(digits);
    int made = written == NULL ? -1 : literal(written, out);
    Py_DECREF(digits);
    return made;
}

static int build_list(PyObject *value, jv *out, int depth) {
    Py_ssize_t n = PyList_GET_SIZE(value);
    if (n > INT_MAX) return refuse("an array too long for libjq");
    jv array = lib.array_sized((int)n);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(value); i++) {
        jv item;
        if (build(PyList_GET_ITEM(value, i), &item, depth + 1) < 0) {
            lib.free(array);
            return -1;
        }
        array = lib.array_append(array, item);
    }
    *out = array;
    return 0;
}

static int build_dict(PyObject *value, jv *out, int depth) {
    jv object = lib.object();
    PyObject *key, *member;
    Py_ssize_t at = 0;
    while (PyDict_Next(value, &at, &key, &member)) {
        jv name, item;
        if (!PyUnicode_CheckExact(key) || build(key, &name, depth + 1) < 0) {
            lib.free(object);
            return PyErr_Occurred() ? -1 : refuse("an object key that is not a string");
        }
        if (build(member, &item, depth + 1) < 0) {
            lib.free(name);
            lib.free(object);
            return -1;
        }
        object = lib.object_set(object, name, item);
    }
    *out = object;
    return 0;
}

static int build(PyObject *value, jv *out, int depth) {
    if (depth > MAX_DEPTH) return refuse("a value nested deeper than libjq reads");
    if (value == Py_None) {
        *out = lib.null();
    } else if (value == Py_True) {
        *out = lib.true_();
    } else if (value == Py_False) {
        *out = lib.false_();
    } else if (PyFloat_CheckExact(value)) {
        return build_float(value, out);
    } else if (PyLong_CheckExact(value)) {
        return build_long(value, out);
    } else if (PyUnicode_CheckExact(value)) {
        Py_ssize_t size;
        const char *text = PyUnicode_AsUTF8AndSize(value, &size);
        if (text == NULL) return -1; /* a lone surrogate */
        if (size > INT_MAX) return refuse("a string too long for libjq");
        *out = lib.string_sized(text, (int)size);
    } else if (PyList_CheckExact(value)) {
        return build_list(value, out, depth);
    } else if (PyDict_CheckExact(value)) {
        return build_dict(value, out, depth);
    } else {
        return refuse("a value of a type JSON does not have");
    }
    return 0;
}

static PyObject *configure(PyObject *self, PyObject *args) {
    unsigned long long a[17];
    if (!PyArg_ParseTuple(args, "KKKKKKKKKKKKKKKKK", &a[0], &a[1], &a[2], &a[3], &a[4],
                          &a[5], &a[6], &a[7], &a[8], &a[9], &a[10], &a[11], &a[12], &a[13],
                          &a[14], &a[15], &a[16]))
        return NULL;
    lib.null = (jv (*)(void))(uintptr_t)a[0];
    lib.true_ = (jv (*)(void))(uintptr_t)a[1];
    lib.false_ = (jv (*)(void))(uintptr_t)a[2];
    lib.number = (jv (*)(double))(uintptr_t)a[3];
    lib.number_with_literal = (jv (*)(const char *))(uintptr_t)a[4];
    lib.string_sized = (jv (*)(const char *, int))(uintptr_t)a[5];
    lib.array_sized = (jv (*)(int))(uintptr_t)a[6];
    lib.array_append = (jv (*)(jv, jv))(uintptr_t)a[7];
    lib.object = (jv (*)(void))(uintptr_t)a[8];
    lib.object_set = (jv (*)(jv, jv, jv))(uintptr_t)a[9];
    lib.free = (void (*)(jv))(uintptr_t)a[10];
    lib.array_length = (int (*)(jv))(uintptr_t)a[11];
    lib.array_get = (jv (*)(jv, int))(uintptr_t)a[12];
    lib.dump_string = (jv (*)(jv, int))(uintptr_t)a[13];
    lib.string_value = (const char *(*)(jv))(uintptr_t)a[14];
    lib.string_length_bytes = (int (*)(jv))(uintptr_t)a[15];
    lib.copy = (jv (*)(jv))(uintptr_t)a[16];
    if (zero_keys[0] == NULL) {
        zero_keys[0] = PyUnicode_FromString("0.0");
        zero_keys[1] = PyUnicode_FromString("-0.0");
        if (zero_keys[0] == NULL || zero_keys[1] == NULL) return NULL;
    }
    configured = 1;
    Py_RETURN_NONE;
}

/* to_jvs(values: list, odd_texts: dict) -> bytes: each value made a jv (owned by the
 * caller), packed. */
static PyObject *to_jvs(PyObject *self, PyObject *args) {
    PyObject *values;
    if (!configured) return PyErr_Format(PyExc_RuntimeError, "configure() was not called");
    if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &values, &PyDict_Type, &odd_texts))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(values);
    PyObject *packed = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(jv));
    if (packed == NULL || index_keys() < 0) {
        Py_XDECREF(packed);
        return PyErr_NoMemory();
    }
    jv *made = (jv *)PyBytes_AS_STRING(packed);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (build(PyList_GET_ITEM(values, i), &made[i], 0) < 0) {
            for (Py_ssize_t j = 0; j < i; j++) lib.free(made[j]);
            Py_CLEAR(packed);
            break;
        }
    }
    PyMem_Free(key_bits);
    key_bits = NULL;
    return packed;
}

/* dump_items(array: bytes, flags: int) -> list[bytes]: jq's text (jv_dump_string with
 * flags) of each item of a jv array (its 16 bytes; consumed): a streamed run's outputs
 * printed in one call, not a ctypes round trip each. */
static PyObject *dump_items(PyObject *self, PyObject *args) {
    Py_buffer packed;
    int flags;
    if (!configured) return PyErr_Format(PyExc_RuntimeError, "configure() was not called");
    if (!PyArg_ParseTuple(args, "y*i", &packed, &flags)) return NULL;
    if (packed.len != (Py_ssize_t)sizeof(jv)) {
        PyBuffer_Release(&packed);
        return PyErr_Format(PyExc_ValueError, "a jv is %d bytes", (int)sizeof(jv));
    }
    jv array;
    memcpy(&array, packed.buf, sizeof array);
    PyBuffer_Release(&packed);
    int n = lib.array_length(lib.copy(array));
    PyObject *texts = PyList_New(n < 0 ? 0 : n);
    for (int i = 0; texts != NULL && i < n; i++) {
        jv text = lib.dump_string(lib.array_get(lib.copy(array), i), flags);
        PyObject *item = PyBytes_FromStringAndSize(lib.string_value(text),
                                                   lib.string_length_bytes(lib.copy(text)));
        lib.free(text);
        if (item == NULL) Py_CLEAR(texts);
        else PyList_SET_ITEM(texts, i, item);
    }
    lib.free(array);
    return texts;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, "libjq's functions' addresses, once."},
    {"to_jvs", to_jvs, METH_VARARGS,
     "Each value of a list made a jv (owned), packed in bytes; odd literals by double."},
    {"dump_items", dump_items, METH_VARARGS,
     "jq's text of each item of a jv array (consumed), with dump flags."},
    {"scan_literals", scan_literals, METH_VARARGS,
     "A JSON text's literal facts (bits), whether some print unlike their double, and "
     "the distinct literals to learn the texts of (None: too many)."},
    {"literals_written", literals_written, METH_VARARGS,
     "Whether each of a tuple of number texts is a literal of a JSON text."},
    {"chain_column", chain_column, METH_VARARGS,
     "(column, kinds): a field chain of each value of a list, strings shared if asked."},
    {"zip_objects", zip_objects, METH_VARARGS,
     "A list of objects, each made of the keys and the columns' values at its place."},
    {"joined_chains", joined_chains, METH_VARARGS,
     "(items, columns, kinds, own kinds): a column's lists joined, chains of their items."},
    {"iso_dates", iso_dates, METH_VARARGS,
     "(days, pieces) of a column of ISO dates cut into a format's pieces, or None."},
    {"group_sums", group_sums, METH_VARARGS,
     "[(key, count, first, sum, bound)] of a number column by a string key column."},
    {"joined_products", joined_products, METH_VARARGS,
     "(count, first x, first y, sum, bound) of .x * .y over a column's lists' items."},
    {"lines_columns", lines_columns, METH_VARARGS,
     "(values, newlines, columns, kinds): JSON Lines as orjson reads them, chains' columns."},
    {"line_spans", line_spans, METH_VARARGS,
     "(rows, entries, names, count, newlines): JSON Lines checked, spans noted."},
    {"project_lines", project_lines, METH_VARARGS,
     "(text, row, entry): a block's lines written again with the members asked."},
    {"moved_items", moved_items, METH_VARARGS,
     "None: a list's items moved into another's places of None, the list left empty."},
    {"seek_rows", seek_rows, METH_VARARGS,
     "[(entry, end)]: where rows of the spans start reading."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_jvbuild", NULL, -1, methods};

PyMODINIT_FUNC PyInit__jvbuild(void) {
    scan_tables();
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "JV_SIZE", (long)sizeof(jv)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
