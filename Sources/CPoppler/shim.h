#ifndef NEWSSTAND_CPOPPLER_SHIM_H
#define NEWSSTAND_CPOPPLER_SHIM_H

#include <poppler.h>
#include <cairo.h>
#include <cairo-pdf.h>

// GObject's casting macros do not import into Swift; these are what the Swift side calls.
static inline void shim_object_unref(void *object) { g_object_unref(object); }

/// Whether an error is poppler's "the document is encrypted" (a password is needed or wrong).
static inline int shim_error_is_encrypted(const GError *error) {
    return error != NULL && error->domain == POPPLER_ERROR && error->code == POPPLER_ERROR_ENCRYPTED;
}

/// A GLib log handler that drops every message: poppler's criticals would otherwise land
/// on the reader's screen.
static void shim_silent_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

static inline void shim_silence_glib_log(void) {
    g_log_set_default_handler(shim_silent_log, NULL);
    g_log_set_handler("Poppler", (GLogLevelFlags)(G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION), shim_silent_log, NULL);
    g_log_set_handler("GLib", (GLogLevelFlags)(G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION), shim_silent_log, NULL);
    g_log_set_handler("GLib-GObject", (GLogLevelFlags)(G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION), shim_silent_log, NULL);
}

#endif
