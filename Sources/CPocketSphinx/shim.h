#ifndef DIRECTME_CPOCKETSPHINX_SHIM_H
#define DIRECTME_CPOCKETSPHINX_SHIM_H

#include <stdarg.h>
#include <stdio.h>
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/jsgf.h>
#include <sphinxbase/fsg_model.h>
#include <sphinxbase/logmath.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/cmn.h>
#include <sphinxbase/feat.h>

/// A log line from sphinxbase, already formatted (Swift cannot receive C varargs).
typedef void (*directme_log_line_f)(int level, const char *line);

/// sphinxbase's log callback is variadic, which Swift cannot implement; this
/// formats each message and hands the finished line to a non-variadic function.
static inline void directme_sphinx_log(void *user_data, err_lvl_t level, const char *format, ...) {
  char line[2048];
  va_list ap;
  va_start(ap, format);
  vsnprintf(line, sizeof line, format, ap);
  va_end(ap);
  directme_log_line_f forward = (directme_log_line_f)user_data;
  if (forward) forward((int)level, line);
}

/// Routes sphinxbase's log to `forward` (NULL silences it).
static inline void directme_sphinx_set_log(directme_log_line_f forward) {
  err_set_logfp(NULL); /* no direct writes to stderr (the configuration dump) */
  err_set_callback(directme_sphinx_log, (void *)forward);
}

#endif
