/* jq 1.8.2's main.c loop in C: inputs read, the program run on each, every result dumped
 * as main.c's process() writes it: into standard output's descriptor through a stream of
 * its own, as jq writes, or into a batch handed to Python (a caller's stream, a test's).
 *
 * libjq's functions are looked up in the library by name (_jqlib.h; the program's set-up is
 * _jqprogram.c's), so this module links against nothing but Python. What is rare (an
 * error's message, a halt's exit code, a parse error) goes back to Python as an event; the
 * loop over results never does.
 */
#include "_jqlib.h" /* Python.h first */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { OK = 0, OK_NULL_KIND = -1, OK_NO_OUTPUT = -4, ERROR_UNKNOWN = 5 };
/* main.c's options */
enum { RAW_OUTPUT = 1, RAW_NO_LF = 2, RAW_OUTPUT0 = 4, ASCII_OUTPUT = 8, SEQ = 16,
       UNBUFFERED = 32, NULL_INPUT = 64 };
/* jq_start's flags (--debug-trace, --debug-trace=all) above them */
#define TRACE_FLAGS(options) (((options) >> 7) & 3)
enum { PRINT_ASCII = 2 };
/* what a call of run() ends with */
enum { EV_BATCH = 0, EV_END = 1, EV_RUN_ERROR = 2, EV_HALTED = 3, EV_PARSE_ERROR = 4 };

/* One result as process() writes it; consumes it. Returns 1 when it is an error (a NUL in
 * a --raw-output0 string): *error then holds it. */
static int write_result(FILE *out, jv result, int dumpflags, int options, run_state *st,
                        jv *error) {
    if ((options & RAW_OUTPUT) && KIND(result) == KIND_STRING) {
        if (options & ASCII_OUTPUT) {
            lib.dumpf(lib.copy(result), out, PRINT_ASCII);
        } else if ((options & RAW_OUTPUT0) &&
                   strlen(lib.string_value(result)) !=
                       (size_t)lib.string_length_bytes(lib.copy(result))) {
            lib.free(result);
            *error = lib.invalid_with_msg(lib.string(
                "Cannot dump a string containing NUL with --raw-output0 option"));
            return 1;
        } else {
            fwrite(lib.string_value(result), 1,
                   (size_t)lib.string_length_bytes(lib.copy(result)), out);
        }
        st->ret = OK;
        lib.free(result);
    } else {
        int kind = KIND(result);
        st->ret = (kind == KIND_FALSE || kind == KIND_NULL) ? OK_NULL_KIND : OK;
        if (options & SEQ)
            fputc('\036', out);
        lib.dumpf(result, out, dumpflags);
    }
    if (!(options & RAW_NO_LF))
        fputc('\n', out);
    if (options & RAW_OUTPUT0)
        fputc('\0', out);
    st->count++;
    return 0;
}

/* The stream on another descriptor than standard output, made once and kept. */
static FILE *kept_stream;
static int kept_fd = -1;
/* The first failed write's errno on the results' stream (jq's main.c checks ferror(stdout)
 * at its end and says "writing output failed"; the run goes on, as jq's does). */
static int write_errno;

static void note_write_error(FILE *out) {
    if (write_errno == 0 && ferror(out))
        write_errno = errno ? errno : EIO;
}

/* C's stdout as jq's main.c has it, whatever Python's -u (PYTHONUNBUFFERED) made of it:
 * buffered as glibc buffers it at its first write (a terminal by lines, anything else by
 * blocks of the descriptor's st_blksize, at most BUFSIZ), written when full and at the end
 * (flush()): what jq says on stderr meanwhile comes first where both share a pipe. */
FILE *jq_stdout(void) {
    static int prepared;
    if (!prepared) {
        struct stat st;
        size_t size = BUFSIZ;
        int by_line = 0;
        if (fstat(STDOUT_FILENO, &st) == 0) {
            if (st.st_blksize > 0 && st.st_blksize < BUFSIZ)
                size = (size_t)st.st_blksize;
            by_line = S_ISCHR(st.st_mode) && isatty(STDOUT_FILENO);
        }
        static char buffer[BUFSIZ];  /* glibc keeps -u's one-byte buffer for a NULL one */
        fflush(stdout);
        setvbuf(stdout, buffer, by_line ? _IOLBF : _IOFBF, size);
        prepared = 1;
    }
    return stdout;
}

static FILE *stream_on(int fd) {
    if (fd == STDOUT_FILENO)
        return jq_stdout();
    if (kept_stream == NULL || kept_fd != fd) {
        int copy = dup(fd);
        kept_stream = copy < 0 ? NULL : fdopen(copy, "w");
        if (kept_stream == NULL)
            return NULL;
        kept_fd = fd;
    }
    return kept_stream;
}

/* The event and the batch: (event, bytes, message or None). */
static PyObject *ended(int event, const char *data, size_t size, jv message) {
    PyObject *text = PyBytes_FromStringAndSize(data ? data : "", (Py_ssize_t)size);
    PyObject *said = Py_None;
    Py_INCREF(said);
    if (KIND(message) == KIND_STRING) {
        Py_DECREF(said);
        said = PyBytes_FromStringAndSize(lib.string_value(message),
                                         lib.string_length_bytes(lib.copy(message)));
    } else if (KIND(message) != KIND_INVALID) {  /* not a string: its JSON, marked */
        Py_DECREF(said);
        jv dumped = lib.dump_string(lib.copy(message), 0);
        said = Py_BuildValue("(y#)", lib.string_value(dumped),
                             (Py_ssize_t)lib.string_length_bytes(lib.copy(dumped)));
        lib.free(dumped);
    }
    lib.free(message);
    PyObject *answer = Py_BuildValue("(iNN)", event, text, said);
    return answer;
}

static jv nothing(void) {
    jv none = {KIND_INVALID, 0, 0, 0, {0}};
    return none;
}

/* run(program, dumpflags, options, batch_bytes, fd) -> (event, bytes, message)
 *
 * Results are written to the descriptor fd through a stream of its own (flushed before
 * each return), or with fd -1 into a batch returned as bytes. Runs until that batch holds
 * batch_bytes (EV_BATCH; the program goes on at the next call),
 * an input's run stops with an error (EV_RUN_ERROR, its message; the next call goes on
 * with the next input) or a halt (EV_HALTED), an input does not parse (EV_PARSE_ERROR),
 * or the inputs end (EV_END). The GIL is released while libjq works.
 */
static PyObject *run(PyObject *self, PyObject *args) {
    PyObject *capsule;
    int dumpflags, options;
    Py_ssize_t batch_bytes;
    int fd;
    if (!PyArg_ParseTuple(args, "Oiini", &capsule, &dumpflags, &options, &batch_bytes, &fd))
        return NULL;
    program *p = program_of(capsule);
    if (p == NULL)
        return NULL;
    void *jq = p->jq, *inputs = p->inputs;
    run_state *st = &p->state;
    char *batch = NULL;
    size_t batch_size = 0;
    /* on C's stdout, libjq's trace and the results are in jq's order */
    FILE *out = fd < 0 ? open_memstream(&batch, &batch_size) : stream_on(fd);
    if (out == NULL)
        return PyErr_SetFromErrno(PyExc_OSError);
    int event = EV_END;
    jv message = nothing();

    Py_BEGIN_ALLOW_THREADS
    for (;;) {
        if (!st->started) {
            if (st->inputs_done) { event = EV_END; break; }
            jv value;
            if (options & NULL_INPUT) {
                st->inputs_done = 1;
                value = lib.null();
            } else {
                if (lib.input_errors(inputs) != 0) { event = EV_END; break; }
                value = lib.next_input(inputs);
                if (KIND(value) == KIND_INVALID) {
                    if (lib.invalid_has_msg(lib.copy(value))) {
                        message = lib.invalid_get_msg(value);
                        event = EV_PARSE_ERROR;
                    } else {
                        lib.free(value);
                        st->inputs_done = 1;
                        event = EV_END;
                    }
                    break;
                }
            }
            lib.jq_start(jq, value, TRACE_FLAGS(options));
            st->started = 1;
            st->ret = OK_NO_OUTPUT;
        }
        jv result;
        int full = 0, failed = 0;
        while (KIND(result = lib.jq_next(jq)) != KIND_INVALID) {
            if (write_result(out, result, dumpflags, options, st, &result)) {
                failed = 1;
                break;
            }
            if (fd >= 0)
                note_write_error(out);
            if (options & UNBUFFERED) {
                fflush(out);
                if (fd < 0) { full = 1; break; }
            } else if (fd < 0 && ftell(out) >= (long)batch_bytes) {
                full = 1;
                break;
            }
        }
        if (full) { event = EV_BATCH; break; }
        st->started = 0;
        if (!failed && lib.jq_halted(jq)) {
            lib.free(result);
            event = EV_HALTED;
            break;
        }
        if (lib.invalid_has_msg(lib.copy(result))) {
            message = lib.invalid_get_msg(result);
            st->ret = ERROR_UNKNOWN;
            event = EV_RUN_ERROR;
            break;
        }
        lib.free(result);
        if (!(options & NULL_INPUT) && st->ret <= 0 && st->ret != OK_NO_OUTPUT)
            st->last_result = (st->ret != OK_NULL_KIND);
    }
    if (fd >= 0)
        note_write_error(out);  /* written when full, or by flush() at the end */
    else
        fclose(out);  /* the batch's bytes in batch, batch_size */
    Py_END_ALLOW_THREADS

    PyObject *answer = ended(event, batch, batch_size, message);
    free(batch);
    return answer;
}

/* Inputs parsed before (the worker's cache of libjq's values): jq_set_input_cb(jq,
 * next_held, &held) makes the program's `input` give a copy of each in turn, then the end,
 * with no call into Python per input. */
typedef struct {
    jv *values;
    Py_ssize_t count;
    Py_ssize_t at;
} held_inputs;

static jv next_held(void *jq, void *data) {
    held_inputs *held = data;
    (void)jq;
    if (held->at >= held->count)
        return nothing();
    return lib.copy(held->values[held->at++]);
}

/* results(state, dumpflags, batch_bytes) -> (body, sizes, last_kind, end)
 *
 * The next results of a program libjq.py's ctypes started (jq_start on the jq_state at the
 * address ``state``), each dumped as jv_dump_string(result, dumpflags) dumps it and followed
 * by a newline, into one bytes ``body``; ``sizes`` holds each one's length (the newline not
 * counted; native 64-bit integers, as bytes) and
 * ``last_kind`` the last one's kind (0: none). Runs until the body holds batch_bytes (end is
 * None: call again) or jq_next gives an invalid value: ``end`` is then its 16 bytes, for
 * Python to read as it reads any (the end, an error, a halt). No Python object is made per
 * result; the GIL is released while libjq works (a debug or input callback takes it). */
static PyObject *results(PyObject *self, PyObject *args) {
    unsigned long long address;
    int dumpflags;
    Py_ssize_t batch_bytes;
    if (!PyArg_ParseTuple(args, "Kin", &address, &dumpflags, &batch_bytes))
        return NULL;
    void *jq = (void *)(uintptr_t)address;
    char *body = NULL, *lengths = NULL;
    size_t body_size = 0, lengths_size = 0;
    FILE *out = open_memstream(&body, &body_size);
    FILE *sizes = out == NULL ? NULL : open_memstream(&lengths, &lengths_size);
    if (sizes == NULL) {
        if (out != NULL) {
            fclose(out);
            free(body);
        }
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    int last_kind = 0, ended = 0;
    jv result;
    Py_BEGIN_ALLOW_THREADS
    long long at = 0;
    while (at < (long long)batch_bytes) {
        result = lib.jq_next(jq);
        if (KIND(result) == KIND_INVALID) {
            ended = 1;
            break;
        }
        last_kind = KIND(result);
        lib.dumpf(result, out, dumpflags);
        long long now = ftell(out);
        long long size = now - at;
        fwrite(&size, sizeof size, 1, sizes);
        putc('\n', out);
        at = now + 1;
    }
    fclose(out);
    fclose(sizes);
    Py_END_ALLOW_THREADS
    PyObject *end = ended ? PyBytes_FromStringAndSize((const char *)&result, sizeof result)
                          : (Py_INCREF(Py_None), Py_None);
    PyObject *answer = Py_BuildValue("(y#y#iN)", body, (Py_ssize_t)body_size, lengths,
                                     (Py_ssize_t)lengths_size, last_kind, end);
    free(body);
    free(lengths);
    return answer;
}

/* flush(): the results' stream written out (C's stdout and any other kept), as jq's exit
 * writes its stdout; a failed write remembered for write_error(). */
static PyObject *flush(PyObject *self, PyObject *args) {
    FILE *streams[] = {stdout, kept_stream};
    for (size_t i = 0; i < 2; i++) {
        if (streams[i] == NULL)
            continue;
        if (fflush(streams[i]) != 0 && write_errno == 0)
            write_errno = errno ? errno : EIO;
        note_write_error(streams[i]);
    }
    Py_RETURN_NONE;
}

/* write_error() -> the errno of the first write to the results' stream that failed since
 * the last call, or 0; the streams' errors are cleared. */
static PyObject *write_error(PyObject *self, PyObject *args) {
    int failed = write_errno;
    write_errno = 0;
    clearerr(stdout);
    if (kept_stream != NULL)
        clearerr(kept_stream);
    return PyLong_FromLong(failed);
}

static PyMethodDef methods[] = {
    {"load", jqlib_load, METH_VARARGS, "Open libjq at a path: load(path_bytes)."},
    {"compile", program_compile, METH_VARARGS, "Compile a program with its arguments."},
    {"close", program_close, METH_O, "Free a program."},
    {"said_to", program_said_to, METH_VARARGS, "Hand debug/stderr output to a writer."},
    {"open_inputs", program_open_inputs, METH_VARARGS, "Set a program's inputs up."},
    {"close_inputs", program_close_inputs, METH_O, "Free a program's inputs."},
    {"status", program_status, METH_O, "(ret, last_result, count, input_errors, read_errors)"},
    {"halt", program_halt, METH_O, "What halt / halt_error left."},
    {"position", program_position, METH_O, "Where libjq's reader is."},
    {"disassemble", program_disassemble, METH_O, "jq's --debug-dump-disasm."},
    {"set_colors", jqlib_set_colors, METH_VARARGS, "jq_set_colors($JQ_COLORS)."},
    {"purge_stdin", purge_stdin, METH_NOARGS, "C's stdin emptied, fully buffered."},
    {"run", run, METH_VARARGS, "Run jq's main loop until a batch is full or an event."},
    {"results", results, METH_VARARGS, "A started program's next results, dumped, in a batch."},
    {"flush", flush, METH_NOARGS, "Write the results' stream out."},
    {"write_error", write_error, METH_NOARGS, "The errno of a failed write, or 0."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_jqmain", "jq's main.c loop over libjq, in C.", -1, methods,
};

PyMODINIT_FUNC PyInit__jqmain(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    PyModule_AddIntConstant(m, "HELD_SIZE", sizeof(held_inputs));
    if (PyModule_AddObject(m, "NEXT_HELD", PyLong_FromVoidPtr((void *)next_held)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
