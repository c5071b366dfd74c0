#ifndef DIRECTME_BYTE_SINK_H
#define DIRECTME_BYTE_SINK_H

#include <stddef.h>
#include <stdio.h>

/// A block of memory that a stdio stream writes into, counting the bytes it took: for dumps of
/// senone scores written into blocks DirectMe keeps between utterances. Unlike `fmemopen`'s,
/// the count outlives the stream (pocketsphinx closes the stream it writes scores to at the
/// end of the utterance).
typedef struct directme_byte_sink directme_byte_sink;

/// A sink writing into `bytes[0..<capacity]` (the caller's; never freed here). NULL when there
/// is no memory.
directme_byte_sink *directme_byte_sink_create(char *bytes, size_t capacity);

/// A stream writing into the sink. A write that does not fit, and every write after it, is
/// dropped and marks the sink overflowed, but succeeds: pocketsphinx's search reads scores
/// from NULL after a failed write of them. Closing the stream leaves the sink and the bytes as
/// they are. NULL on failure.
FILE *directme_byte_sink_open(directme_byte_sink *sink);

/// The bytes written so far (those the stream's buffer holds count once it is flushed or closed).
size_t directme_byte_sink_count(directme_byte_sink const *sink);

/// 1 when a write did not fit.
int directme_byte_sink_overflowed(directme_byte_sink const *sink);

/// Frees the sink (not its bytes; close its stream first).
void directme_byte_sink_free(directme_byte_sink *sink);

#endif
