/* WebAssembly entry points of the browser page (web/, docs/web.md): the public API and the CLI's
 * operand parser, JSON out.  The page is single-threaded: results live in one static buffer, valid until
 * the next call.  Built by clang for wasm32-wasi (mk/web.mk), never by the native build. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "explain_fold.h"
#include "mmaref.h"

#define WEB_EXPORT(name) __attribute__((export_name(#name)))

static char out[1 << 20];
static size_t used;

static void put(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void put(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (used < sizeof out)
        used += (size_t)vsnprintf(out + used, sizeof out - used, fmt, ap);
    va_end(ap);
}

static void put_string(const char *s)
{
    put("\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            put("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            put("\\u%04x", *s);
        else
            put("%c", *s);
    }
    put("\"");
}

WEB_EXPORT(web_alloc) void *web_alloc(int n) { return malloc((size_t)n); }
WEB_EXPORT(web_free) void web_free(void *p) { free(p); }

/* Every instruction: [{"arch", "name", "k", "a", "b", "c", "d", "scale", "block", "schedule", "sass"}] */
WEB_EXPORT(web_list) const char *web_list(void)
{
    size_t n = mmaref_list(NULL, NULL, 0);
    mmaref_instr *all = calloc(n, sizeof *all);
    used = 0;
    if (!all)
        return "[]";
    mmaref_list(NULL, all, n);
    put("[");
    for (size_t i = 0; i < n; i++) {
        char sched[256];
        mmaref_schedule_name(&all[i], sched, sizeof sched);
        put("%s{\"arch\":", i ? "," : "");
        put_string(all[i].arch);
        put(",\"name\":");
        put_string(all[i].name);
        put(",\"k\":%d,\"a\":\"%s\",\"b\":\"%s\",\"c\":\"%s\",\"d\":\"%s\",\"scale\":\"%s\",\"block\":%d,\"schedule\":",
            all[i].k, mmaref_format_name(all[i].a), mmaref_format_name(all[i].b), mmaref_format_name(all[i].c),
            mmaref_format_name(all[i].d), all[i].block_size ? mmaref_format_name(all[i].scale) : "",
            all[i].block_size);
        put_string(sched);
        put(",\"sass\":");
        put_string(all[i].sass);
        put("}");
    }
    put("]");
    free(all);
    return out;
}

static const char *fail(const char *msg)
{
    used = 0;
    put("{\"ok\":false,\"error\":");
    put_string(msg);
    put("}");
    return out;
}

/* One dot-add from operand text as `mmaref explain` reads it (a, b, sa, sb comma lists; "" for no scales):
 * {"ok":true, "arch", "name" (canonical), "d":"0x..", "value":"...", "trace":[{"pass","step","what","text","value",
 * "fold"}...]} or {"ok":false,"error"}.  "fold" (explain_fold.h): 0 shown, 2 a line of a folded run of
 * lanes that contribute nothing, 1 its first line, which also has "fold_what" and "fold_text" (the
 * run's one line, as `mmaref explain` prints it). */
WEB_EXPORT(web_explain)
const char *web_explain(const char *arch, const char *name, const char *ta, const char *tb, const char *tc,
                        const char *tsa, const char *tsb)
{
    static mmaref_trace_line lines[4096];
    static unsigned char fold[4096];
    static mmaref_instr in;
    char msg[512];
    if (mmaref_lookup(arch, name, &in, msg, sizeof msg))
        return fail(msg);
    uint64_t a[MMAREF_MAX_K] = {0}, b[MMAREF_MAX_K] = {0}, c = 0, sa[MMAREF_MAX_SCALES], sb[MMAREF_MAX_SCALES], d;
    int na, nb, ns = mmaref_scale_count(&in), n;
    if (cli_parse_list(in.a, ta, "a", a, in.k, &na, msg, sizeof msg) ||
        cli_parse_list(in.b, tb, "b", b, in.k, &nb, msg, sizeof msg) ||
        cli_parse_value(in.c, *tc ? tc : "0", "c", &c, msg, sizeof msg))
        return fail(msg);
    if (ns) {
        uint64_t one;
        mmaref_format_from_double(in.scale, 1.0, &one);
        for (int i = 0; i < ns; i++)
            sa[i] = sb[i] = one;
        if ((*tsa && cli_parse_list(in.scale, tsa, "scale-a", sa, ns, &na, msg, sizeof msg)) ||
            (*tsb && cli_parse_list(in.scale, tsb, "scale-b", sb, ns, &nb, msg, sizeof msg)))
            return fail(msg);
    }
    if (mmaref_explain(&in, c, a, b, ns ? sa : NULL, ns ? sb : NULL, lines, 4096, &n, &d, msg, sizeof msg))
        return fail(msg);
    char value[128], fold_what[32], fold_text[64];
    cli_format_decimal(value, sizeof value, in.d, d);
    if (n > 4096)
        n = 4096;
    explain_fold(lines, n, -1, fold);
    used = 0;
    put("{\"ok\":true,\"arch\":");
    put_string(in.arch);
    put(",\"name\":");
    put_string(in.name);
    put(",\"d\":\"0x%0*llx\",\"value\":", cli_hex_digits(in.d), (unsigned long long)d);
    put_string(value);
    put(",\"trace\":[");
    for (int i = 0; i < n; i++) {
        put("%s{\"pass\":%d,\"step\":", i ? "," : "", lines[i].pass);
        put_string(lines[i].step);
        put(",\"what\":");
        put_string(lines[i].what);
        put(",\"text\":");
        put_string(lines[i].text);
        put(",\"value\":");
        put_string(lines[i].value);
        put(",\"fold\":%d", fold[i]);
        if (fold[i] == FOLD_FIRST) {
            explain_fold_summary(lines, n, fold, i, fold_what, sizeof fold_what, fold_text, sizeof fold_text);
            put(",\"fold_what\":");
            put_string(fold_what);
            put(",\"fold_text\":");
            put_string(fold_text);
        }
        put("}");
    }
    put("]}");
    return out;
}
