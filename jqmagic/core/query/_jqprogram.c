/* A jq command line's program as jq 1.8.2's main.c sets it up, in C: libjq opened by path,
 * the program compiled with its named and positional arguments, its debug and stderr
 * output handed to a Python writer, its inputs read by libjq's own reader, its halt and a
 * parse error's place read back. Python (mainloop.py) keeps the decisions; no ctypes. */
#include "_jqlib.h" /* Python.h first */

#include <dlfcn.h>
#include <stdio_ext.h>
#include <string.h>

jqlib lib;
static const char *const lib_names[] = {JQLIB_NAMES};
enum { PRINT_PRETTY = 1 };
enum { OK_NO_OUTPUT = -4 };
/* what compile() ends with */
enum { COMPILED = 0, COMPILE_ERROR = 1, BAD_JSON_ARGUMENT = 2, UNREADABLE_FILE = 3 };
/* an argument's kind: its bytes as a string, JSON text, a file's text, a file's values */
enum { ARG_STRING = 0, ARG_JSON = 1, ARG_RAWFILE = 2, ARG_SLURPFILE = 3 };

/* load(path): libjq's functions from the library at path (bytes). */
PyObject *jqlib_load(PyObject *self, PyObject *args) {
    const char *path;
    if (!PyArg_ParseTuple(args, "y", &path))
        return NULL;
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL)
        return PyErr_Format(PyExc_OSError, "cannot open libjq: %s", dlerror());
    void **slots = (void **)&lib;
    size_t count = sizeof(lib_names) / sizeof(lib_names[0]);
    if (count * sizeof(void *) != sizeof(lib))
        return PyErr_Format(PyExc_SystemError, "_jqlib.h: %zu names for the table", count);
    for (size_t i = 0; i < count; i++) {
        slots[i] = dlsym(handle, lib_names[i]);
        if (slots[i] == NULL)
            return PyErr_Format(PyExc_OSError, "libjq has no %s", lib_names[i]);
    }
    Py_RETURN_NONE;
}

static PyObject *text_of(const char *data, int size) {
    return PyUnicode_DecodeUTF8(data, size, "replace");
}

/* a jv string's text; consumes it */
PyObject *jqlib_text(jv value) {
    PyObject *text = text_of(lib.string_value(value), lib.string_length_bytes(lib.copy(value)));
    lib.free(value);
    return text;
}

/* a message as jq prints it: a string as it is, anything else as JSON; consumes it */
static PyObject *message_text(jv value) {
    return jqlib_text(KIND(value) == KIND_STRING ? value : lib.dump_string(value, 0));
}

static void append(PyObject *list, PyObject *item) {
    if (item == NULL || PyList_Append(list, item) < 0)
        PyErr_WriteUnraisable(list);
    Py_XDECREF(item);
}

/* while compiling (and after, uncalled for): every message kept, in jq's words */
static void on_message(void *data, jv value) {
    program *p = data;
    PyGILState_STATE gil = PyGILState_Ensure();
    append(p->messages, message_text(value));
    PyGILState_Release(gil);
}

static void on_debug_kept(void *data, jv value) {
    program *p = data;
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *dumped = jqlib_text(lib.dump_string(value, 0));
    append(p->messages, dumped == NULL ? NULL
           : PyUnicode_FromFormat("[\"DEBUG:\",%U]", dumped));
    Py_XDECREF(dumped);
    PyGILState_Release(gil);
}

static void program_free(program *p) {
    if (p->inputs != NULL) {
        lib.jq_set_input_cb(p->jq, NULL, NULL);
        lib.input_free(&p->inputs);
    }
    if (p->jq != NULL)
        lib.jq_teardown(&p->jq);
    if (KIND(p->arguments) != KIND_INVALID) {
        lib.free(p->arguments);
        p->arguments.kind_flags = KIND_INVALID;
    }
    Py_CLEAR(p->messages);
    Py_CLEAR(p->read_errors);
    Py_CLEAR(p->writer);
    Py_CLEAR(p->said);
}

static void capsule_gone(PyObject *capsule) {
    program *p = PyCapsule_GetPointer(capsule, "jqmagic.program");
    if (p != NULL) {
        program_free(p);
        PyMem_Free(p);
    }
}

program *program_of(PyObject *capsule) {
    program *p = PyCapsule_GetPointer(capsule, "jqmagic.program");
    if (p != NULL && p->jq == NULL) {
        PyErr_SetString(PyExc_ValueError, "the program was closed");
        return NULL;
    }
    return p;
}

static jv string_of(PyObject *bytes) {
    return lib.string_sized(PyBytes_AS_STRING(bytes), (int)PyBytes_GET_SIZE(bytes));
}

/* One argument's value (kind, bytes), as jq's main.c binds it; on failure an invalid jv and
 * *failure, *why set (a new reference). */
static jv argument(PyObject *item, int *failure, PyObject **why) {
    int kind;
    PyObject *data;
    if (!PyArg_ParseTuple(item, "iO!", &kind, &PyBytes_Type, &data)) {
        *failure = -1;
        return lib.null();
    }
    if (kind == ARG_STRING)
        return string_of(data);
    jv value = kind == ARG_JSON
        ? lib.parse_sized(PyBytes_AS_STRING(data), (int)PyBytes_GET_SIZE(data))
        : lib.load_file(PyBytes_AS_STRING(data), kind == ARG_RAWFILE);
    if (KIND(value) == KIND_INVALID) {
        *failure = kind == ARG_JSON ? BAD_JSON_ARGUMENT : UNREADABLE_FILE;
        *why = message_text(lib.invalid_get_msg(value));  /* consumes value */
        return lib.null();
    }
    return value;
}

/* The named arguments with $ARGS (and $JQ_BUILD_CONFIGURATION unless build is None); an
 * invalid jv on failure. */
static jv arguments_of(PyObject *named, PyObject *positional, PyObject *build, int *failure,
                       PyObject **why) {
    jv bound = lib.object(), listed = lib.array();
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(named) && !*failure; i++) {
        PyObject *name, *kind, *data;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(named, i), "O!OO", &PyBytes_Type, &name, &kind,
                              &data)) {
            *failure = -1;
            break;
        }
        PyObject *pair = PyTuple_Pack(2, kind, data);
        jv value = pair == NULL ? lib.null() : argument(pair, failure, why);
        if (pair == NULL)
            *failure = -1;
        Py_XDECREF(pair);
        if (*failure)
            lib.free(value);
        else
            bound = lib.object_set(bound, string_of(name), value);
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(positional) && !*failure; i++) {
        jv value = argument(PyList_GET_ITEM(positional, i), failure, why);
        if (*failure)
            lib.free(value);
        else
            listed = lib.array_append(listed, value);
    }
    if (*failure) {
        lib.free(bound);
        lib.free(listed);
        jv none = {KIND_INVALID, 0, 0, 0, {0}};
        return none;
    }
    jv whole = lib.object_set(lib.object(), lib.string("positional"), listed);
    whole = lib.object_set(whole, lib.string("named"), lib.copy(bound));
    bound = lib.object_set(bound, lib.string("ARGS"), whole);
    if (build != Py_None)
        bound = lib.object_set(bound, lib.string("JQ_BUILD_CONFIGURATION"), string_of(build));
    return bound;
}

/* compile(text, named, positional, library_paths, jq_origin, program_origin, build)
 *   -> (program, COMPILED, None) | (None, failure, messages or why)
 *
 * named: [(name, kind, bytes)], positional: [(kind, bytes)], library_paths: [bytes]; the
 * kinds are ARG_*; build: the $JQ_BUILD_CONFIGURATION text, or None when one is named.
 * COMPILE_ERROR comes with every message libjq said (str), BAD_JSON_ARGUMENT and
 * UNREADABLE_FILE with libjq's why. */
PyObject *program_compile(PyObject *self, PyObject *args) {
    const char *text;
    Py_ssize_t text_size;
    PyObject *named, *positional, *paths, *jq_origin, *program_origin, *build;
    if (!PyArg_ParseTuple(args, "y#O!O!O!O!O!O", &text, &text_size, &PyList_Type, &named,
                          &PyList_Type, &positional, &PyList_Type, &paths, &PyBytes_Type,
                          &jq_origin, &PyBytes_Type, &program_origin, &build))
        return NULL;
    program *p = PyMem_Calloc(1, sizeof(program));
    if (p == NULL)
        return PyErr_NoMemory();
    p->state.ret = OK_NO_OUTPUT;
    p->state.last_result = -1;
    p->messages = PyList_New(0);
    PyObject *capsule = PyCapsule_New(p, "jqmagic.program", capsule_gone);
    if (p->messages == NULL || capsule == NULL) {
        if (capsule == NULL) {
            Py_XDECREF(p->messages);
            PyMem_Free(p);
        }
        Py_XDECREF(capsule);
        return NULL;
    }
    p->jq = lib.jq_init();
    lib.jq_set_error_cb(p->jq, on_message, p);
    lib.jq_set_debug_cb(p->jq, on_debug_kept, p);
    lib.jq_set_stderr_cb(p->jq, on_message, p);
    jv searched = lib.array();
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(paths); i++) {
        PyObject *path = PyList_GET_ITEM(paths, i);
        if (!PyBytes_Check(path)) {
            lib.free(searched);
            Py_DECREF(capsule);
            return PyErr_Format(PyExc_TypeError, "library paths are bytes");
        }
        searched = lib.array_append(searched, string_of(path));
    }
    lib.jq_set_attr(p->jq, lib.string("JQ_LIBRARY_PATH"), searched);
    lib.jq_set_attr(p->jq, lib.string("JQ_ORIGIN"), string_of(jq_origin));
    lib.jq_set_attr(p->jq, lib.string("PROGRAM_ORIGIN"), string_of(program_origin));
    int failure = 0;
    PyObject *why = NULL;
    jv arguments = arguments_of(named, positional, build, &failure, &why);
    if (failure) {
        Py_DECREF(capsule);
        if (failure < 0)
            return NULL;
        return Py_BuildValue("(OiN)", Py_None, failure, why);
    }
    p->arguments = lib.copy(arguments);
    if (!lib.jq_compile_args(p->jq, text, arguments)) {
        PyObject *said = p->messages;
        Py_INCREF(said);
        Py_DECREF(capsule);
        return Py_BuildValue("(OiN)", Py_None, COMPILE_ERROR, said);
    }
    return Py_BuildValue("(NiO)", capsule, COMPILED, Py_None);
}

/* close(program): libjq's state and the inputs freed (the capsule's end does it too). */
PyObject *program_close(PyObject *self, PyObject *capsule) {
    program *p = PyCapsule_GetPointer(capsule, "jqmagic.program");
    if (p == NULL)
        return NULL;
    program_free(p);
    Py_RETURN_NONE;
}

static void write_out(program *p, jv text, const char *end) {
    PyObject *data = PyBytes_FromStringAndSize(lib.string_value(text),
                                               lib.string_length_bytes(lib.copy(text)));
    lib.free(text);
    if (data != NULL && *end)
        PyBytes_ConcatAndDel(&data, PyBytes_FromString(end));
    PyObject *done = data == NULL ? NULL : PyObject_CallOneArg(p->writer, data);
    if (done == NULL)
        PyErr_WriteUnraisable(p->writer);
    Py_XDECREF(done);
    Py_XDECREF(data);
}

/* debug: ["DEBUG:",value] on a line, as main.c's debug_cb writes it */
static void on_debug(void *data, jv value) {
    program *p = data;
    PyGILState_STATE gil = PyGILState_Ensure();
    jv line = lib.array_append(lib.array_append(lib.array(), lib.string("DEBUG:")), value);
    write_out(p, lib.dump_string(line, p->dump_flags & ~PRINT_PRETTY), "\n");
    PyGILState_Release(gil);
}

/* stderr: a string as it is, anything else as compact JSON, as main.c's stderr_cb */
static void on_stderr(void *data, jv value) {
    program *p = data;
    PyGILState_STATE gil = PyGILState_Ensure();
    write_out(p, KIND(value) == KIND_STRING ? value : lib.dump_string(value, 0), "");
    PyGILState_Release(gil);
}

/* said_to(program, writer, dump_flags): debug and stderr output handed to writer(bytes). */
PyObject *program_said_to(PyObject *self, PyObject *args) {
    PyObject *capsule, *writer;
    int dump_flags;
    if (!PyArg_ParseTuple(args, "OOi", &capsule, &writer, &dump_flags))
        return NULL;
    program *p = program_of(capsule);
    if (p == NULL)
        return NULL;
    Py_INCREF(writer);
    Py_XSETREF(p->writer, writer);
    p->dump_flags = dump_flags;
    lib.jq_set_debug_cb(p->jq, on_debug, p);
    lib.jq_set_stderr_cb(p->jq, on_stderr, p);
    Py_RETURN_NONE;
}

/* a file libjq could not open: kept, and said at once (as main.c says it then) */
static void on_read_error(void *data, const char *message) {
    program *p = data;
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *text = text_of(message, (int)strlen(message));
    if (text != NULL && p->said != Py_None) {
        PyObject *done = PyObject_CallOneArg(p->said, text);
        if (done == NULL)
            PyErr_WriteUnraisable(p->said);
        Py_XDECREF(done);
    }
    append(p->read_errors, text);
    PyGILState_Release(gil);
}

/* open_inputs(program, files, parse_flags, slurp, raw_input, said): the files (bytes;
 * "-" is standard input) read by libjq as jq's main.c sets its inputs up, and given to
 * the program's input/inputs; said(name) hears each file that cannot be opened when libjq
 * comes to it (None: kept only); the messages kept so far are dropped. */
PyObject *program_open_inputs(PyObject *self, PyObject *args) {
    PyObject *capsule, *files, *said;
    int parse_flags, slurp, raw_input;
    if (!PyArg_ParseTuple(args, "OO!ippO", &capsule, &PyList_Type, &files, &parse_flags,
                          &slurp, &raw_input, &said))
        return NULL;
    program *p = program_of(capsule);
    if (p == NULL)
        return NULL;
    if (p->inputs != NULL)
        return PyErr_Format(PyExc_ValueError, "the inputs are open");
    Py_INCREF(said);
    Py_XSETREF(p->said, said);
    Py_XSETREF(p->read_errors, PyList_New(0));
    if (p->read_errors == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(files); i++)
        if (!PyBytes_Check(PyList_GET_ITEM(files, i)))
            return PyErr_Format(PyExc_TypeError, "file names are bytes");
    p->inputs = lib.input_init(on_read_error, p);
    lib.input_set_parser(p->inputs, raw_input ? NULL : lib.parser_new(parse_flags), slurp);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(files); i++)
        lib.input_add_input(p->inputs, PyBytes_AS_STRING(PyList_GET_ITEM(files, i)));
    lib.jq_set_input_cb(p->jq, lib.input_next_input_cb, p->inputs);
    if (PyList_SetSlice(p->messages, 0, PyList_GET_SIZE(p->messages), NULL) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* close_inputs(program): the program's input callback unset, libjq's reader freed. */
PyObject *program_close_inputs(PyObject *self, PyObject *capsule) {
    program *p = program_of(capsule);
    if (p == NULL)
        return NULL;
    if (p->inputs != NULL) {
        lib.jq_set_input_cb(p->jq, NULL, NULL);
        lib.input_free(&p->inputs);
    }
    Py_RETURN_NONE;
}

/* status(program) -> (ret, last_result, count, input_errors, read_errors) */
PyObject *program_status(PyObject *self, PyObject *capsule) {
    program *p = program_of(capsule);
    if (p == NULL)
        return NULL;
    int errors = p->inputs != NULL ? lib.input_errors(p->inputs) : 0;
    return Py_BuildValue("(iiLiO)", p->state.ret, p->state.last_result, p->state.count, errors,
                         p->read_errors != NULL ? p->read_errors : Py_None);
}

/* halt(program) -> (exit code's kind, its JSON text or None, message's kind, its text or
 * None): what halt / halt_error left, as main.c reads it. */
PyObject *program_halt(PyObject *self, PyObject *capsule) {
    program *p = program_of(capsule);
    if (p == NULL)
        return NULL;
    jv code = lib.jq_get_exit_code(p->jq), error = lib.jq_get_error_message(p->jq);
    int code_kind = KIND(code), error_kind = KIND(error);
    PyObject *code_text = Py_None, *error_text = Py_None;
    if (code_kind == KIND_NUMBER)
        code_text = jqlib_text(lib.dump_string(code, 0));
    else
        lib.free(code);
    if (error_kind != KIND_INVALID)
        error_text = message_text(error);
    else
        lib.free(error);
    if (code_text == Py_None)
        Py_INCREF(code_text);
    if (error_text == Py_None)
        Py_INCREF(error_text);
    return Py_BuildValue("(iNiN)", code_kind, code_text, error_kind, error_text);
}

/* position(program) -> where libjq's reader is ("<stdin>:3", ...), as jq says it */
PyObject *program_position(PyObject *self, PyObject *capsule) {
    program *p = program_of(capsule);
    if (p == NULL)
        return NULL;
    return message_text(lib.input_get_position(p->jq));
}

/* disassemble(program): jq's --debug-dump-disasm, then an empty line, on
 * C's stdout as the results will be (buffered with them, as in jq). */
PyObject *program_disassemble(PyObject *self, PyObject *capsule) {
    program *p = program_of(capsule);
    if (p == NULL)
        return NULL;
    jq_stdout();
    lib.jq_dump_disassembly(p->jq, 0);
    puts("");
    Py_RETURN_NONE;
}

/* set_colors(text) -> whether libjq took $JQ_COLORS (jq_set_colors) */
PyObject *jqlib_set_colors(PyObject *self, PyObject *args) {
    const char *colors;
    if (!PyArg_ParseTuple(args, "y", &colors))
        return NULL;
    return PyBool_FromLong(lib.jq_set_colors(colors));
}

/* purge_stdin(): C's stdin emptied and fully buffered. Python run unbuffered (-u,
 * PYTHONUNBUFFERED) leaves it unbuffered, and libjq's reads of "-" were then one read() a
 * byte (a 50 MB text 14 s, not 0.3 s). */
PyObject *purge_stdin(PyObject *self, PyObject *args) {
    static char buffer[1 << 16];  /* C's stdin's, for the process's life */
    __fpurge(stdin);
    clearerr(stdin);
    setvbuf(stdin, buffer, _IOFBF, sizeof(buffer));
    Py_RETURN_NONE;
}
