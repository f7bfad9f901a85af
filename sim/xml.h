/* xml.h — safe XML reading for scenarios and profiles: libxml2 with network access, DTD
 * loading and entity substitution off, RelaxNG validation, errors as "file:line: ...". */
#pragma once
#include <libxml/tree.h>
#include "common.h"

G_BEGIN_DECLS

/* Parses path with XML_PARSE_NONET, no DTD loading, no entity substitution, no XInclude,
 * and a size limit; a document that declares a DOCTYPE with entities is rejected.
 * Errors (NS_ERROR_INPUT / NS_ERROR_IO): "path:line: what was expected". */
xmlDocPtr  ns_xml_parse_file    (const char *path, GError **error);
/* Validates doc against the RelaxNG schema at rng_path; the first error becomes
 * "file:line: element X: expected ..." using `file` as the file name. */
gboolean   ns_xml_validate      (xmlDocPtr doc, const char *rng_path, const char *file,
                                 GError **error);
/* Like ns_xml_validate; on failure *bad_node (if not NULL) is the node at fault: an
 * element, or an attribute (xmlAttrPtr cast to xmlNodePtr), or NULL if unknown. */
gboolean   ns_xml_validate_full (xmlDocPtr doc, const char *rng_path, const char *file,
                                 xmlNodePtr *bad_node, GError **error);
/* Path of a schema shipped in <datadir>/scenarios/ (e.g. "scenario.rng"); newly allocated. */
char      *ns_xml_schema_path   (const char *schema_name);
/* Line number of node (0 if unknown). */
int        ns_xml_line          (xmlNodePtr node);

G_END_DECLS
