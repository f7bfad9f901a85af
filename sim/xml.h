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
/* FALSE with an NS_ERROR_IO error ("path: not a regular file (a pipe or device): …") if
 * path names a file that is neither a regular file nor a folder: netsim reads a scenario
 * and its profile several times a run (ns_xml_parse_file refuses such a file too). TRUE
 * if path names none (reading it says so). */
gboolean   ns_xml_check_regular (const char *path, GError **error);
/* Validates doc against the RelaxNG schema at rng_path, and refuses an attribute value
 * that begins or ends with white space (the schema compares values trimmed, netsim's
 * readers as written); the first error becomes
 * "file:line: element X: expected ..." using `file` as the file name. */
gboolean   ns_xml_validate      (xmlDocPtr doc, const char *rng_path, const char *file,
                                 GError **error);
/* Like ns_xml_validate (which also refuses an attribute value that begins or ends with
 * white space, after the schema passes); on failure *bad_node (if not NULL) is the node at fault: an
 * element, or an attribute (xmlAttrPtr cast to xmlNodePtr), or NULL if unknown. */
gboolean   ns_xml_validate_full (xmlDocPtr doc, const char *rng_path, const char *file,
                                 xmlNodePtr *bad_node, GError **error);
/* Path of a schema shipped in <datadir>/scenarios/ (e.g. "scenario.rng"); newly allocated. */
char      *ns_xml_schema_path   (const char *schema_name);
/* Line number of node (0 if unknown): where an element's start tag begins (its '<'), where
 * an attribute's name is (the element's line for an attribute a --set wrote), in a file
 * ns_xml_parse_file read (libxml2 alone gives an element the line its start tag ends on,
 * an attribute none). */
int        ns_xml_line          (xmlNodePtr node);
/* The line of attribute attr of element node (ns_xml_line), or node's if it has none. */
int        ns_xml_attr_line     (xmlNodePtr node, const char *attr);
/* A copy of doc (xmlCopyDoc) whose attributes keep their lines (ns_xml_line). */
xmlDocPtr  ns_xml_copy_doc      (xmlDocPtr doc);
/* Parses path (ns_xml_parse_file) and validates it against the schema at rng_path; the
 * document, or NULL with an error. */
xmlDocPtr  ns_xml_load          (const char *path, const char *rng_path, GError **error);
/* The attribute name (no namespace) written on element node, or NULL (never a default
 * a DTD declares: netsim reads only what the document writes). */
xmlAttrPtr ns_xml_attr          (xmlNodePtr node, const char *name);
/* The attribute name of node as written, newly allocated; NULL if node is NULL or has none. */
char      *ns_xml_prop          (xmlNodePtr node, const char *name);
/* The element's text, whitespace-trimmed; newly allocated ("" if none). */
char      *ns_xml_text          (xmlNodePtr node);
/* TRUE if node is an element named name (NULL: any name). */
gboolean   ns_xml_is_element    (xmlNodePtr node, const char *name);
/* The first child element of parent (NULL: none) named name (NULL: any name), or NULL. */
xmlNodePtr ns_xml_child         (xmlNodePtr parent, const char *name);
/* Sets an NS_ERROR_INPUT "path:line: message" error, the line being node's. */
void       ns_xml_set_error     (GError **error, const char *path, xmlNodePtr node,
                                 const char *format, ...) G_GNUC_PRINTF (4, 5);
/* Like ns_xml_set_error for an error about attribute attr of element node: the line is
 * the attribute's (ns_xml_attr_line). */
void       ns_xml_set_error_attr (GError **error, const char *path, xmlNodePtr node,
                                  const char *attr, const char *format, ...)
                                  G_GNUC_PRINTF (5, 6);

G_END_DECLS
