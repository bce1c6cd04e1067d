#ifndef NEWSSTAND_CCURL_H
#define NEWSSTAND_CCURL_H

// libcurl, loaded with dlopen the first time https is used: a command that never reaches an
// https server never loads libcurl and the ~25 libraries behind it (TLS, Kerberos, LDAP, SSH).
// The types and constants are libcurl's own headers (Debian's libcurl4-openssl-dev); every
// function goes through a table filled by dlsym, and the variadic ones (setopt, getinfo) get
// one typed wrapper each, since Swift cannot call a C variadic function.

#include <curl/curl.h>

/// Loads libcurl.so.4, finds its functions and initialises it, once per process (any thread).
/// NULL when libcurl is ready; otherwise why it is not (the same text every call).
const char *ccurl_load(void);
/// 1 once `ccurl_load` has loaded libcurl into this process, 0 before.
int ccurl_is_loaded(void);

// Each needs a successful `ccurl_load` first.
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *easy);
CURLcode ccurl_setopt_long(CURL *easy, CURLoption option, long value);
/// Strings (copied by libcurl), lists, and the callbacks' user data.
CURLcode ccurl_setopt_pointer(CURL *easy, CURLoption option, void *value);
/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
CURLcode ccurl_setopt_data_function(CURL *easy, CURLoption option, curl_write_callback function);
CURLcode ccurl_getinfo_long(CURL *easy, CURLINFO info, long *value);
const char *ccurl_easy_strerror(CURLcode code);

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line);
void ccurl_slist_free_all(struct curl_slist *list);

CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *easy);
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *easy);
CURLMcode ccurl_multi_cleanup(CURLM *multi);
CURLMcode ccurl_multi_perform(CURLM *multi, int *running);
CURLMcode ccurl_multi_poll(CURLM *multi, int timeout_ms);
/// Safe from any thread while another waits in `ccurl_multi_poll` on the same handle.
CURLMcode ccurl_multi_wakeup(CURLM *multi);
const char *ccurl_multi_strerror(CURLMcode code);
/// 1 and the transfer's result in `*result` once a transfer of `multi` is done, else 0.
int ccurl_multi_done(CURLM *multi, CURLcode *result);

#endif
