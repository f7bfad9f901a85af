/* report.h — writing run results as a terminal table, CSV or JSON. */
#pragma once
#include "run.h"

G_BEGIN_DECLS

typedef enum {
  NS_FORMAT_TABLE,
  NS_FORMAT_CSV,
  NS_FORMAT_JSON
} NsFormat;

typedef struct {
  NsFormat  format;
  gboolean  breakdown;      /* per-function cycles by cause (table; always in JSON) */
  gboolean  inlining;       /* inlining decisions (table; always in JSON) */
  guint     top;            /* rows of the breakdown in the table (0 = all) */
  gboolean  explain;        /* per comparison, the breakdown's changes (table; always in
                               JSON) */
  gboolean  stat;           /* event counts per operation, as perf stat (table; always in
                               JSON) */
} NsReportOptions;

gboolean ns_format_parse   (const char *text, NsFormat *out);
/* Appends the result in the chosen format to out. */
void     ns_report_run     (GString *out, const NsRunResult *result, const NsReportOptions *opt);
/* Appends the collected calling contexts (NsRunOptions.stacks) as folded stacks:
 * "variant;thread;outer;…;inner;[cause] cycles" per line, for flamegraph.pl. */
void     ns_report_folded  (GString *out, const NsRunResult *result);
/* The parameter set as "# name = value unit — source" comment lines (CSV headers). */
void     ns_report_params_comment (GString *out, const NsParams *params);
/* The parameter set as a JSON array member. */
struct _NsJson;
void     ns_report_params_json (struct _NsJson *json, const NsParams *params);

G_END_DECLS
