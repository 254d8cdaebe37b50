/* A field chain's column over a list of Python values in one pass in C (jqlang/columns.py):
 * .a.b... of each value (an object's member, null when it has none or the value is null,
 * else the caller's UNREAD marker: the loop reads that item itself, raising jq's error),
 * each string made the first object equal to it when asked (a column whose strings repeat
 * keeps one object per distinct text), and the kinds of values met, as bits. Only exact
 * dicts are walked, and their keys and the chain's names are exact strings, so no Python
 * code runs during the pass. Included once by _jvbuild.c; columns.py calls it through
 * projected.py, which hands it over where the extension is built.
 */

#define KIND_NULL 1
#define KIND_BOOL 2
#define KIND_INT 4
#define KIND_FLOAT 8
#define KIND_STR 16
#define KIND_LIST 32
#define KIND_DICT 64
#define KIND_UNREAD 128
#define KIND_OTHER 256

static long kind_of(PyObject *v, PyObject *unread) {
    if (v == Py_None) return KIND_NULL;
    if (v == Py_True || v == Py_False) return KIND_BOOL;
    if (PyLong_CheckExact(v)) return KIND_INT;
    if (PyFloat_CheckExact(v)) return KIND_FLOAT;
    if (PyUnicode_CheckExact(v)) return KIND_STR;
    if (PyList_CheckExact(v)) return KIND_LIST;
    if (PyDict_CheckExact(v)) return KIND_DICT;
    return v == unread ? KIND_UNREAD : KIND_OTHER;
}

/* The value at the end of the chain (borrowed): unread where a value on the way is
 * neither an exact dict nor null; NULL with an exception set on a failed lookup. */
static PyObject *chain_end(PyObject *v, PyObject *const *names, Py_ssize_t depth,
                           PyObject *unread) {
    for (Py_ssize_t d = 0; d < depth; d++) {
        if (PyDict_CheckExact(v)) {
            PyObject *found = PyDict_GetItemWithError(v, names[d]);
            if (found == NULL && PyErr_Occurred()) return NULL;
            v = found == NULL ? Py_None : found;
        } else if (v != Py_None) {
            return unread;
        }
    }
    return v;
}

static PyObject *chain_column(PyObject *self, PyObject *args) {
    PyObject *values, *chain, *unread;
    int share;
    if (!PyArg_ParseTuple(args, "O!O!Op", &PyList_Type, &values, &PyTuple_Type, &chain,
                          &unread, &share))
        return NULL;
    Py_ssize_t depth = PyTuple_GET_SIZE(chain), n = PyList_GET_SIZE(values);
    for (Py_ssize_t d = 0; d < depth; d++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(chain, d))) {
            PyErr_SetString(PyExc_TypeError, "a chain's names must be strings");
            return NULL;
        }
    }
    PyObject *const *names = &PyTuple_GET_ITEM(chain, 0);
    PyObject *column = PyList_New(n);
    PyObject *first = share ? PyDict_New() : NULL;
    if (column == NULL || (share && first == NULL)) goto fail;
    long kinds = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = chain_end(PyList_GET_ITEM(values, i), names, depth, unread);
        if (v == NULL) goto fail;
        long kind = kind_of(v, unread);
        if (share && kind == KIND_STR) {
            v = PyDict_SetDefault(first, v, v);
            if (v == NULL) goto fail;
        }
        kinds |= kind;
        Py_INCREF(v);
        PyList_SET_ITEM(column, i, v);
    }
    Py_XDECREF(first);
    return Py_BuildValue("(Nl)", column, kinds);
fail:
    Py_XDECREF(column);
    Py_XDECREF(first);
    return NULL;
}

/* Objects made from columns: {keys[0]: columns[0][i], ...} for each i (the columns lists
 * of one length, the keys exact strings: no Python code runs while they are made). */
static PyObject *zip_objects(PyObject *self, PyObject *args) {
    PyObject *keys, *columns;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &keys, &PyTuple_Type, &columns))
        return NULL;
    Py_ssize_t k = PyTuple_GET_SIZE(keys), n = -1;
    if (k == 0 || PyTuple_GET_SIZE(columns) != k) {
        PyErr_SetString(PyExc_ValueError, "as many columns as keys, at least one");
        return NULL;
    }
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *column = PyTuple_GET_ITEM(columns, j);
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(keys, j)) || !PyList_CheckExact(column) ||
            (n >= 0 && PyList_GET_SIZE(column) != n)) {
            PyErr_SetString(PyExc_TypeError, "string keys and lists of one length");
            return NULL;
        }
        n = PyList_GET_SIZE(column);
    }
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *object = PyDict_New();
        if (object == NULL) goto fail;
        PyList_SET_ITEM(out, i, object);
        for (Py_ssize_t j = 0; j < k; j++) {
            if (PyDict_SetItem(object, PyTuple_GET_ITEM(keys, j),
                               PyList_GET_ITEM(PyTuple_GET_ITEM(columns, j), i)) < 0)
                goto fail;
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}
