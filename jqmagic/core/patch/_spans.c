/* The members of one container of a plain JSON text, read in C for core/patch/onepass.py.

   members(text, pos, member, decode) -> list of member(key, start, kend, vstart, vend):
   what jsonscan.plain_members yields for the object or array opening at ``pos`` of
   ``text`` (a TextDoc's text: the file's bytes as latin-1, which jsonscan.validate found
   plain JSON: no comments, no trailing commas). ``member`` is jsonscan.Member (a
   NamedTuple); ``decode`` makes the key of a key string holding a backslash (its text
   with the quotes). Nested values are skipped by counting brackets outside strings.
   Anything unexpected (which validated text never holds) raises ValueError. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

typedef struct {
    const unsigned char *s;
    Py_ssize_t n;
} Text;

static int is_ws(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static Py_ssize_t skip_ws(const Text *t, Py_ssize_t i) {
    while (i < t->n && is_ws(t->s[i])) i++;
    return i;
}

/* Just after the string whose opening quote is at i; -1 past the end. */
static Py_ssize_t string_end(const Text *t, Py_ssize_t i, int *escaped) {
    i++;
    while (i < t->n) {
        unsigned char c = t->s[i];
        if (c == '"') return i + 1;
        if (c == '\\') {
            *escaped = 1;
            i += 2;
        } else {
            i++;
        }
    }
    return -1;
}

/* Just after the value starting at i; -1 where the text ends first or holds no value. */
static Py_ssize_t value_end(const Text *t, Py_ssize_t i) {
    int escaped = 0;
    if (i >= t->n) return -1;
    unsigned char c = t->s[i];
    if (c == '"') return string_end(t, i, &escaped);
    if (c == '{' || c == '[') {
        Py_ssize_t depth = 0;
        while (i < t->n) {
            c = t->s[i];
            if (c == '"') {
                i = string_end(t, i, &escaped);
                if (i < 0) return -1;
                continue;
            }
            if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (--depth == 0) return i + 1;
            }
            i++;
        }
        return -1;
    }
    Py_ssize_t start = i;
    while (i < t->n) {
        c = t->s[i];
        if (is_ws(c) || c == ',' || c == ']' || c == '}') break;
        i++;
    }
    return i > start ? i : -1;
}

static PyObject *fail(Py_ssize_t at) {
    PyErr_Format(PyExc_ValueError, "not plain JSON at %zd", at);
    return NULL;
}

static PyObject *make_member(PyTypeObject *type, PyObject *key, Py_ssize_t start,
                             Py_ssize_t kend, Py_ssize_t vstart, Py_ssize_t vend) {
    PyObject *item = type->tp_alloc(type, 5);
    if (item == NULL) {
        Py_DECREF(key);
        return NULL;
    }
    PyTuple_SET_ITEM(item, 0, key);
    Py_ssize_t numbers[4] = {start, kend, vstart, vend};
    for (int k = 0; k < 4; k++) {
        PyObject *number = PyLong_FromSsize_t(numbers[k]);
        if (number == NULL) {
            Py_DECREF(item);
            return NULL;
        }
        PyTuple_SET_ITEM(item, k + 1, number);
    }
    return item;
}

static PyObject *members(PyObject *self, PyObject *args) {
    PyObject *text, *decode;
    PyTypeObject *type;
    Py_ssize_t pos;
    if (!PyArg_ParseTuple(args, "UnO!O", &text, &pos, &PyType_Type, &type, &decode))
        return NULL;
    if (!PyType_IsSubtype(type, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "member must be a tuple type");
        return NULL;
    }
    if (PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND) return fail(0);
    Text t = {PyUnicode_1BYTE_DATA(text), PyUnicode_GET_LENGTH(text)};
    if (pos < 0 || pos >= t.n || (t.s[pos] != '{' && t.s[pos] != '[')) return fail(pos);
    int keyed = t.s[pos] == '{';
    unsigned char close = keyed ? '}' : ']';
    PyObject *list = PyList_New(0);
    if (list == NULL) return NULL;
    Py_ssize_t cur = skip_ws(&t, pos + 1), index = 0;
    while (cur < t.n && t.s[cur] != close) {
        Py_ssize_t start = cur, kend = cur, vstart = cur;
        PyObject *key;
        if (keyed) {
            int escaped = 0;
            if (t.s[cur] != '"') goto bad;
            kend = string_end(&t, cur, &escaped);
            if (kend < 0) goto bad;
            if (escaped)
                key = PyObject_CallFunction(decode, "N",
                                            PyUnicode_Substring(text, start, kend));
            else
                key = PyUnicode_Substring(text, start + 1, kend - 1);
            if (key == NULL) goto error;
            vstart = skip_ws(&t, kend);
            if (vstart >= t.n || t.s[vstart] != ':') {
                Py_DECREF(key);
                cur = vstart;
                goto bad;
            }
            vstart = skip_ws(&t, vstart + 1);
        } else {
            key = PyLong_FromSsize_t(index);
            if (key == NULL) goto error;
        }
        Py_ssize_t vend = value_end(&t, vstart);
        if (vend < 0) {
            Py_DECREF(key);
            cur = vstart;
            goto bad;
        }
        PyObject *item = make_member(type, key, start, kend, vstart, vend);
        if (item == NULL) goto error;
        int added = PyList_Append(list, item);
        Py_DECREF(item);
        if (added < 0) goto error;
        cur = skip_ws(&t, vend);
        if (cur < t.n && t.s[cur] == ',') cur = skip_ws(&t, cur + 1);
        index++;
    }
    if (cur >= t.n) goto bad;
    return list;
bad:
    Py_DECREF(list);
    return fail(cur);
error:
    Py_DECREF(list);
    return NULL;
}

static PyMethodDef methods[] = {
    {"members", members, METH_VARARGS,
     "members(text, pos, member, decode): the members of a plain JSON container."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_spans", NULL, -1, methods};

PyMODINIT_FUNC PyInit__spans(void) { return PyModule_Create(&module); }
