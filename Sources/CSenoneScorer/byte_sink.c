/* A stdio stream that writes into a block of memory the caller owns and counts what it took
 * (see byte_sink.h). fopencookie is a GNU extension. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "byte_sink.h"

struct directme_byte_sink {
  char *bytes;
  size_t capacity;
  size_t count;
  int overflowed;
};

static ssize_t sink_write(void *cookie, char const *buffer, size_t size) {
  directme_byte_sink *sink = cookie;
  if (sink->overflowed || size > sink->capacity - sink->count) {
    /* Dropped, but the write succeeds: pocketsphinx does not survive a failed write of
     * senone scores (its search then reads scores from NULL). The owner sees the flag. */
    sink->overflowed = 1;
    return (ssize_t)size;
  }
  memcpy(sink->bytes + sink->count, buffer, size);
  sink->count += size;
  return (ssize_t)size;
}

/* Closing the stream leaves the sink and its bytes to their owner. */
static int sink_close(void *cookie) {
  (void)cookie;
  return 0;
}

directme_byte_sink *directme_byte_sink_create(char *bytes, size_t capacity) {
  directme_byte_sink *sink = calloc(1, sizeof *sink);
  if (sink == NULL) return NULL;
  sink->bytes = bytes;
  sink->capacity = capacity;
  return sink;
}

FILE *directme_byte_sink_open(directme_byte_sink *sink) {
  cookie_io_functions_t functions = {.read = NULL, .write = sink_write, .seek = NULL, .close = sink_close};
  return fopencookie(sink, "w", functions);
}

size_t directme_byte_sink_count(directme_byte_sink const *sink) { return sink->count; }

int directme_byte_sink_overflowed(directme_byte_sink const *sink) { return sink->overflowed; }

void directme_byte_sink_free(directme_byte_sink *sink) { free(sink); }
