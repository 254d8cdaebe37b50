/* The top-level objects of JSON Lines (_linesread.h's rows) made as dicts that share their
 * keys: CPython 3.11 keeps an instance's attributes in a split table (the keys once, in the
 * class; the values in a small array each), and a copy of such a dict is split too. Each
 * shape of row (its keys in order) gets a template, an instance's dict of those keys; a row
 * is the template copied, its values written in the places the template's own were (found
 * once by marking them). On the 60 MB log the decode's peak resident set is 14% smaller
 * (438 -> 378 MB) at the same speed. Elsewhere (another Python, a key naming a slot of the
 * class, more than ROWS_MAX members, a table the class no longer shares) the row is a
 * plain dict. Included once by _linesread.h.
 */
#define ROWS_MAX 30    /* CPython shares at most 30 keys */
#define ROWS_SHAPES 64 /* shapes remembered: a power of two */
#define ROWS_PLAIN 5   /* rows of this many members or fewer are plain dicts: a split one's
                        * values are 30 places, 296 bytes, a plain one of 5 keys 184 */

typedef struct {
    int n;
    PyObject *keys[ROWS_MAX]; /* owned */
    PyObject *template;       /* owned; NULL: rows of this shape are plain dicts */
    int at[ROWS_MAX];         /* where the template's values array holds each key's value */
} rows_shape;

typedef struct {
    PyObject *cls; /* owned: the class whose instances share the keys */
    rows_shape shapes[ROWS_SHAPES];
} rows_maker;

static void rows_forget(rows_shape *shape) {
    for (int i = 0; i < shape->n; i++) Py_CLEAR(shape->keys[i]);
    Py_CLEAR(shape->template);
    shape->n = 0;
}

static void rows_release(rows_maker *m) {
    if (m == NULL) return;
    for (int s = 0; s < ROWS_SHAPES; s++) rows_forget(&m->shapes[s]);
    Py_XDECREF(m->cls);
    PyMem_Free(m);
}

static PyObject *rows_plain(PyObject **keys, PyObject **items, int n) {
    PyObject *d = n > 5 ? _PyDict_NewPresized(n) : PyDict_New();
    for (int i = 0; d != NULL && i < n; i++)
        if (PyDict_SetItem(d, keys[i], items[i]) < 0) Py_CLEAR(d);
    return d;
}

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
#define ROWS_SPLIT 1
/* The values array of a split dict (3.11's PyDictValues: the values alone). */
#define ROWS_VALUES(d) ((PyObject **)((PyDictObject *)(d))->ma_values)

/* A template of the keys (an instance's dict, each value the key's place as an int), or
 * NULL (no error set) where it would not be split. */
static int rows_template(rows_maker *m, rows_shape *shape) {
    for (int i = 0; i < shape->n; i++) {
        Py_ssize_t size;
        const char *text = PyUnicode_AsUTF8AndSize(shape->keys[i], &size);
        if (text == NULL) return -1;
        if (size >= 2 && text[0] == '_' && text[1] == '_') return 0; /* __dict__, __class__ */
    }
    if (m->cls == NULL) {
        m->cls = PyObject_CallFunction((PyObject *)&PyType_Type, "s()N", "row", PyDict_New());
        if (m->cls == NULL) return -1;
    }
    PyObject *instance = PyObject_CallNoArgs(m->cls), *t = NULL;
    if (instance == NULL) return -1;
    for (int i = 0; i < shape->n; i++) {
        PyObject *mark = PyLong_FromLong(i);
        int failed = mark == NULL || PyObject_SetAttr(instance, shape->keys[i], mark) < 0;
        Py_XDECREF(mark);
        if (failed) goto done;
    }
    t = PyObject_GenericGetDict(instance, NULL);
    if (t == NULL || ((PyDictObject *)t)->ma_values == NULL) goto done;
    PyObject **values = ROWS_VALUES(t);
    for (int i = 0; i < shape->n; i++) shape->at[i] = -1;
    int found = 0; /* the keys are at most ROWS_MAX: so are the places */
    for (int j = 0; j < ROWS_MAX && found < PyDict_GET_SIZE(t); j++) {
        if (values[j] == NULL) continue; /* a key of another shape */
        long mark = PyLong_AsLong(values[j]);
        for (int i = 0; i < shape->n; i++)
            if (PyUnicode_Compare(shape->keys[i], shape->keys[mark]) == 0)
                shape->at[i] = j; /* a repeated key: its last place, as the dict keeps */
        found++;
    }
    int placed = found == PyDict_GET_SIZE(t);
    for (int i = 0; i < shape->n; i++) placed &= shape->at[i] >= 0;
    if (placed) {
        shape->template = t;
        t = NULL;
    }
done:
    Py_DECREF(instance);
    Py_XDECREF(t);
    return PyErr_Occurred() ? -1 : 0;
}
#endif

/* The row of these members (keys and values borrowed). */
static PyObject *rows_dict(rows_maker *m, PyObject **keys, PyObject **items, int n) {
#ifdef ROWS_SPLIT
    if (n <= ROWS_PLAIN) return rows_plain(keys, items, n);
    uintptr_t h = 0;
    for (int i = 0; i < n; i++) h = (h ^ (uintptr_t)keys[i]) * 0x9E3779B97F4A7C15ULL;
    rows_shape *shape = &m->shapes[(h >> 40) & (ROWS_SHAPES - 1)];
    if (shape->n != n || memcmp(shape->keys, keys, n * sizeof(PyObject *)) != 0) {
        rows_forget(shape);
        for (int i = 0; i < n; i++) {
            Py_INCREF(keys[i]);
            shape->keys[i] = keys[i];
        }
        shape->n = n;
        if (rows_template(m, shape) < 0) {
            rows_forget(shape);
            return NULL;
        }
    }
    if (shape->template != NULL) {
        PyObject *d = PyDict_Copy(shape->template);
        if (d == NULL) return NULL;
        if (((PyDictObject *)d)->ma_values == NULL) { /* not split after all */
            Py_DECREF(d);
            return rows_plain(keys, items, n);
        }
        PyObject **values = ROWS_VALUES(d);
        int containers = 0;
        for (int i = 0; i < n; i++) {
            PyObject *old = values[shape->at[i]];
            Py_INCREF(items[i]);
            values[shape->at[i]] = items[i];
            Py_DECREF(old);
            containers |= PyObject_IS_GC(items[i]);
        }
        if (containers && !PyObject_GC_IsTracked(d)) PyObject_GC_Track(d);
        return d;
    }
#endif
    (void)m;
    return rows_plain(keys, items, n);
}
