#define JQ_VERSION "1.8.2"
