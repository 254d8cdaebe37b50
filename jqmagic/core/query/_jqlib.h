/* libjq 1.8.2's functions as _jqmain finds them: the library is opened by path (the
 * package's -O2 build or the binding's copy, the one ctypes opens in the worker) and each
 * function looked up by name, so the extension links against nothing but Python and the
 * command line needs no ctypes. */
#ifndef JQMAGIC_JQLIB_H
#define JQMAGIC_JQLIB_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdio.h>

#include "_jv.h"

typedef void (*jq_msg_cb)(void *, jv);
typedef void (*jq_util_msg_cb)(void *, const char *);
typedef jv (*jq_input_cb)(void *, void *);

typedef struct {
    void (*jq_start)(void *, jv, int);
    jv (*jq_next)(void *);
    int (*jq_halted)(void *);
    jv (*next_input)(void *);
    int (*input_errors)(void *);
    jv (*dump_string)(jv, int);
    void (*dumpf)(jv, FILE *, int);
    const char *(*string_value)(jv);
    int (*string_length_bytes)(jv);
    jv (*copy)(jv);
    void (*free)(jv);
    int (*invalid_has_msg)(jv);
    jv (*invalid_get_msg)(jv);
    jv (*null)(void);
    jv (*string)(const char *);
    jv (*invalid_with_msg)(jv);
    /* a program's set-up, as main.c makes it */
    void *(*jq_init)(void);
    void (*jq_teardown)(void **);
    int (*jq_compile_args)(void *, const char *, jv);
    void (*jq_set_attr)(void *, jv, jv);
    void (*jq_set_error_cb)(void *, jq_msg_cb, void *);
    void (*jq_set_debug_cb)(void *, jq_msg_cb, void *);
    void (*jq_set_stderr_cb)(void *, jq_msg_cb, void *);
    void (*jq_set_input_cb)(void *, jq_input_cb, void *);
    jv (*jq_get_exit_code)(void *);
    jv (*jq_get_error_message)(void *);
    void (*jq_dump_disassembly)(void *, int);
    int (*jq_set_colors)(const char *);
    void *(*input_init)(jq_util_msg_cb, void *);
    void (*input_free)(void **);
    void (*input_set_parser)(void *, void *, int);
    void (*input_add_input)(void *, const char *);
    jv (*input_next_input_cb)(void *, void *);
    jv (*input_get_position)(void *);
    void *(*parser_new)(int);
    jv (*parse_sized)(const char *, int);
    jv (*string_sized)(const char *, int);
    jv (*array)(void);
    jv (*array_append)(jv, jv);
    jv (*object)(void);
    jv (*object_set)(jv, jv, jv);
    jv (*load_file)(const char *, int);
} jqlib;

extern jqlib lib;

/* the names of lib's functions, in its order (the library's own symbols) */
#define JQLIB_NAMES                                                                        \
    "jq_start", "jq_next", "jq_halted", "jq_util_input_next_input",                     \
    "jq_util_input_errors", "jv_dump_string", "jv_dumpf", "jv_string_value",             \
    "jv_string_length_bytes", "jv_copy", "jv_free", "jv_invalid_has_msg",                \
    "jv_invalid_get_msg", "jv_null", "jv_string", "jv_invalid_with_msg", "jq_init",      \
    "jq_teardown", "jq_compile_args", "jq_set_attr", "jq_set_error_cb",                  \
    "jq_set_debug_cb", "jq_set_stderr_cb", "jq_set_input_cb", "jq_get_exit_code",        \
    "jq_get_error_message", "jq_dump_disassembly", "jq_set_colors",                      \
    "jq_util_input_init", "jq_util_input_free", "jq_util_input_set_parser",              \
    "jq_util_input_add_input", "jq_util_input_next_input_cb",                            \
    "jq_util_input_get_position", "jv_parser_new", "jv_parse_sized", "jv_string_sized",  \
    "jv_array", "jv_array_append", "jv_object", "jv_object_set", "jv_load_file"

enum { KIND_INVALID = 0, KIND_NULL = 1, KIND_FALSE = 2, KIND_NUMBER = 4, KIND_STRING = 5 };
#define KIND(value) ((value).kind_flags & 0x0F) /* the flags above it: allocated, ... */

/* One command line's program: libjq's state, its inputs, what its run has written. */
typedef struct {
    int started;      /* the program is running on an input */
    int inputs_done;  /* -n's one input given, or the inputs read to their end */
    int ret;          /* process()'s return for the current input */
    int last_result;  /* main.c's last_result (-e) */
    long long count;  /* results written */
} run_state;

typedef struct {
    void *jq;
    void *inputs;         /* jq_util_input_state, while open_inputs() holds it */
    jv arguments;         /* held while it runs, as main.c holds its own */
    PyObject *messages;   /* a list: what libjq said while compiling (str) */
    PyObject *read_errors;  /* a list: the files the inputs could not read (str) */
    PyObject *writer;     /* debug/stderr output: called with bytes (said_to) */
    PyObject *said;       /* called with each file the inputs cannot open (open_inputs) */
    int dump_flags;
    run_state state;
} program;

program *program_of(PyObject *capsule);
PyObject *jqlib_text(jv value);  /* a jv string's bytes as str (replaced); consumes */

/* the Python functions of _jqprogram.c */
PyObject *jqlib_load(PyObject *self, PyObject *args);
PyObject *program_compile(PyObject *self, PyObject *args);
PyObject *program_close(PyObject *self, PyObject *args);
FILE *jq_stdout(void);  /* C's stdout buffered as jq's (_jqmain.c) */
PyObject *program_said_to(PyObject *self, PyObject *args);
PyObject *program_open_inputs(PyObject *self, PyObject *args);
PyObject *program_close_inputs(PyObject *self, PyObject *args);
PyObject *program_status(PyObject *self, PyObject *args);
PyObject *program_halt(PyObject *self, PyObject *args);
PyObject *program_position(PyObject *self, PyObject *args);
PyObject *program_disassemble(PyObject *self, PyObject *args);
PyObject *jqlib_set_colors(PyObject *self, PyObject *args);
PyObject *purge_stdin(PyObject *self, PyObject *args);

#endif
