/* xml.c — safe XML reading: libxml2 with no network, no DTD loading, no entity
 * substitution, no XInclude; RelaxNG validation with readable "file:line: ..." errors. */
#include "config.h"
#include "xml.h"
#include "profile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/relaxng.h>
#include <libxml/xmlerror.h>

/* Largest XML file accepted (scenarios and profiles are a few KiB). */
#define NS_XML_MAX_FILE_SIZE (16u * 1024 * 1024)
/* Attributes one start tag may have: every element netsim reads takes under 20, and
 * libxml2's duplicate check (and RelaxNG's, against an open attribute pattern) costs the
 * square of the count: 10 000 attributes took 5 s and 800 MB before this bound. */
#define MAX_ATTRIBUTES 256

#define XINCLUDE_NS_2001 "http://www.w3.org/2001/XInclude"
#define XINCLUDE_NS_2003 "http://www.w3.org/2003/XInclude"

/* What one parse or validation collects: the first error, as text with its line. */
typedef struct {
  const char *file;       /* name used in messages */
  char       *message;    /* first error, without "file:line: " */
  int         line;       /* its line (0 if unknown) */
  xmlNodePtr  node;       /* its node, for validation errors */
  int         code;       /* libxml2 error code */
} NsXmlErrors;

/* Saved libxml2 global handlers while a parse runs. */
typedef struct {
  xmlStructuredErrorFunc   structured;
  void                    *structured_ctx;
  xmlGenericErrorFunc      generic;
  void                    *generic_ctx;
  xmlExternalEntityLoader  loader;
} NsXmlGuard;

G_LOCK_DEFINE_STATIC (loader);

/* Rewords libxml2 messages that would send a user to parser options netsim does not
 * offer; others are kept, on one line, without the trailing newline. Newly allocated. */
static char *
clean_message (const char *message)
{
  char *text = g_strdup (message != NULL ? message : "unknown XML error");
  char *bytes;

  g_strstrip (g_strdelimit (text, "\r\n", ' '));
  if (strstr (text, "Excessive depth in document") != NULL) {
    g_free (text);
    return g_strdup ("elements nested too deeply (limit 256 levels)");
  }
  if (g_str_has_prefix (text, "Input is not proper UTF-8")) {
    bytes = strstr (text, "Bytes:");
    message = g_strdup_printf ("file is not valid UTF-8%s%s%s (save it as UTF-8 or declare "
                               "its real encoding)", bytes != NULL ? " (" : "",
                               bytes != NULL ? bytes : "", bytes != NULL ? ")" : "");
    g_free (text);
    return (char *) message;
  }
  return text;
}

/* Records err in errors if it is the first error (warnings are ignored). */
static void
errors_record (NsXmlErrors *errors, const xmlError *err)
{
  if (err == NULL || err->level < XML_ERR_ERROR || errors->message != NULL)
    return;
  errors->message = clean_message (err->message);
  errors->line = err->line;
  errors->code = err->code;
  if (err->node != NULL && err->domain != XML_FROM_PARSER)
    errors->node = (xmlNodePtr) err->node;
}

/* Structured error handler whose context is an NsXmlErrors. */
static void
on_error (void *data, xmlErrorPtr err)
{
  errors_record (data, err);
}

/* Structured error handler installed on a parser context (its user data is the context). */
static void
on_parser_error (void *data, xmlErrorPtr err)
{
  xmlParserCtxtPtr ctxt = data;

  errors_record (ctxt->_private, err);
}

/* Generic error handler that drops everything (structured handlers report instead). */
static void
on_generic_error (void *data, const char *msg, ...)
{
}

/* External entity loader that refuses every external resource: a backstop, as the
 * DOCTYPE hooks (on_internal_subset, on_entity_decl) stop the parse before any load. */
static xmlParserInputPtr
refuse_external_entity (const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
  if (ctxt != NULL && ctxt->_private != NULL) {
    NsXmlErrors *errors = ctxt->_private;

    if (errors->message == NULL) {
      errors->message = g_strdup_printf ("external resource '%s' refused (netsim reads "
                                         "no external DTDs or entities)",
                                         url != NULL ? url : (id != NULL ? id : "?"));
      errors->line = xmlSAX2GetLineNumber (ctxt);
    }
  }
  return NULL;
}

/* Routes all libxml2 diagnostics of this thread to errors (the handlers are per thread);
 * with refuse_loads, also refuses every external load (the loader is process-wide, so it
 * is held under a lock until guard_remove). */
static void
guard_install (NsXmlGuard *guard, NsXmlErrors *errors, gboolean refuse_loads)
{
  guard->structured = xmlStructuredError;
  guard->structured_ctx = xmlStructuredErrorContext;
  guard->generic = xmlGenericError;
  guard->generic_ctx = xmlGenericErrorContext;
  guard->loader = NULL;
  xmlSetStructuredErrorFunc (errors, on_error);
  xmlSetGenericErrorFunc (NULL, on_generic_error);
  if (refuse_loads) {
    G_LOCK (loader);
    guard->loader = xmlGetExternalEntityLoader ();
    xmlSetExternalEntityLoader (refuse_external_entity);
  }
}

/* Restores what guard_install replaced. */
static void
guard_remove (NsXmlGuard *guard)
{
  if (guard->loader != NULL) {
    xmlSetExternalEntityLoader (guard->loader);
    G_UNLOCK (loader);
  }
  xmlSetGenericErrorFunc (guard->generic_ctx, guard->generic);
  xmlSetStructuredErrorFunc (guard->structured_ctx, guard->structured);
}

/* Sets the first collected error (or fallback) as "file:line: message". */
static void
errors_to_gerror (const NsXmlErrors *errors, const char *fallback, GError **error)
{
  const char *message = errors->message != NULL ? errors->message : fallback;

  if (errors->line > 0)
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%d: %s", errors->file, errors->line,
                 message);
  else
    g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: %s", errors->file, message);
}

/* SAX hook: the DOCTYPE start; an external DTD identifier stops the parse. */
static void
on_internal_subset (void *data, const xmlChar *name, const xmlChar *external_id,
                    const xmlChar *system_id)
{
  xmlParserCtxtPtr ctxt = data;
  NsXmlErrors *errors = ctxt->_private;

  if (external_id == NULL && system_id == NULL) {
    xmlSAX2InternalSubset (data, name, external_id, system_id);
    return;
  }
  if (errors->message == NULL) {
    errors->message = g_strdup_printf ("DOCTYPE refers to an external DTD ('%s'); "
                                       "external DTDs are not allowed",
                                       system_id != NULL ? (const char *) system_id
                                                         : (const char *) external_id);
    errors->line = xmlSAX2GetLineNumber (ctxt);
  }
  xmlStopParser (ctxt);
}

/* SAX hook: any entity declaration stops the parse before it can be used. */
static void
on_entity_decl (void *data, const xmlChar *name, int type, const xmlChar *public_id,
                const xmlChar *system_id, xmlChar *content)
{
  xmlParserCtxtPtr ctxt = data;
  NsXmlErrors *errors = ctxt->_private;
  gboolean parameter = type == XML_INTERNAL_PARAMETER_ENTITY ||
                       type == XML_EXTERNAL_PARAMETER_ENTITY;
  gboolean external = system_id != NULL || public_id != NULL;

  if (errors->message == NULL) {
    errors->message = g_strdup_printf ("DOCTYPE declares %s%s entity '%s'; entity "
                                       "declarations are not allowed",
                                       external ? "external " : "",
                                       parameter ? "parameter" : "general", name);
    errors->line = xmlSAX2GetLineNumber (ctxt);
  }
  xmlStopParser (ctxt);
}

/* Stops the parse at a declaration of the internal DTD subset other than an entity's
 * (what: "attribute list 'ELEMENT/NAME'"): a declared attribute default would be read as if
 * the document gave it, and the schema never sees it. */
static void
refuse_declaration (xmlParserCtxtPtr ctxt, const char *what)
{
  NsXmlErrors *errors = ctxt->_private;

  if (errors->message == NULL) {
    errors->message = g_strdup_printf ("DOCTYPE declares %s; the internal DTD subset must "
                                       "be empty (write <!DOCTYPE name> or none)", what);
    errors->line = xmlSAX2GetLineNumber (ctxt);
  }
  xmlStopParser (ctxt);
}

/* SAX hook: an <!ATTLIST> declaration (it could give attributes defaults) stops the parse. */
static void
on_attribute_decl (void *data, const xmlChar *elem, const xmlChar *fullname, int type,
                   int def, const xmlChar *default_value, xmlEnumerationPtr tree)
{
  g_autofree char *what = g_strdup_printf ("an attribute list ('%s' of element '%s')",
                                           fullname, elem);

  xmlFreeEnumeration (tree);            /* the SAX handler owns it */
  refuse_declaration (data, what);
}

/* SAX hook: an <!ELEMENT> declaration stops the parse. */
static void
on_element_decl (void *data, const xmlChar *name, int type, xmlElementContentPtr content)
{
  g_autofree char *what = g_strdup_printf ("element '%s'", name);

  refuse_declaration (data, what);
}

/* SAX hook: a <!NOTATION> declaration stops the parse. */
static void
on_notation_decl (void *data, const xmlChar *name, const xmlChar *public_id,
                  const xmlChar *system_id)
{
  g_autofree char *what = g_strdup_printf ("notation '%s'", name);

  refuse_declaration (data, what);
}

/* Sets the NS_ERROR_IO error for path, a file that is not a regular file. */
static void
error_not_regular (const char *path, GError **error)
{
  g_set_error (error, NS_ERROR, NS_ERROR_IO, "%s: not a regular file (a pipe or device): "
               "netsim reads it several times; save it to a file", path);
}

/* FALSE with an error if path names a file that is neither a regular file nor a folder;
 * see xml.h. */
gboolean
ns_xml_check_regular (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  if (!g_file_test (path, G_FILE_TEST_EXISTS) ||
      g_file_test (path, G_FILE_TEST_IS_REGULAR | G_FILE_TEST_IS_DIR))
    return TRUE;
  error_not_regular (path, error);
  return FALSE;
}

/* Reads path into memory (at most NS_XML_MAX_FILE_SIZE bytes); NS_ERROR_IO on failure,
 * and for a file that is not a regular one: a pipe would give its text to the first of
 * the several reads a run makes (the others finding it empty), and a FIFO would block
 * (it is opened without blocking, to be refused). */
static gboolean
read_file (const char *path, char **contents, gsize *length, GError **error)
{
  struct stat st;
  GString *buf = NULL;
  char chunk[8192];
  ssize_t n;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0);

  if (fd < 0)
    goto error_errno;
  if (fstat (fd, &st) < 0)
    goto error_errno;
  if (S_ISDIR (st.st_mode)) {
    errno = EISDIR;
    goto error_errno;
  }
  if (!S_ISREG (st.st_mode))
    goto error_not_regular;
  buf = g_string_sized_new ((gsize) st.st_size + 1);
  while ((n = read (fd, chunk, sizeof chunk)) != 0) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      goto error_errno;
    if (buf->len + (gsize) n > NS_XML_MAX_FILE_SIZE)
      goto error_too_large;
    g_string_append_len (buf, chunk, n);
  }
  close (fd);
  *length = buf->len;
  *contents = g_string_free (buf, FALSE);
  return TRUE;

/* ERRORS */
error_errno:
  {
    int saved = errno;

    g_set_error (error, NS_ERROR, NS_ERROR_IO, "%s: cannot read: %s", path,
                 g_strerror (saved));
    goto error_cleanup;
  }
error_not_regular:
  error_not_regular (path, error);
  goto error_cleanup;
error_too_large:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s: file too large (limit %u MiB)", path,
               NS_XML_MAX_FILE_SIZE / (1024 * 1024));
error_cleanup:
  if (fd >= 0)
    close (fd);
  if (buf != NULL)
    g_string_free (buf, TRUE);
  return FALSE;
}

/* Finds the first node below (and including) node that must not appear in a safe
 * document: an entity reference or an XInclude element. */
static xmlNodePtr
find_forbidden_node (xmlNodePtr node)
{
  for (; node != NULL; node = node->next) {
    xmlNodePtr found;

    if (node->type == XML_ENTITY_REF_NODE || node->type == XML_XINCLUDE_START)
      return node;
    if (node->type == XML_ELEMENT_NODE && node->ns != NULL && node->ns->href != NULL &&
        (xmlStrEqual (node->ns->href, BAD_CAST XINCLUDE_NS_2001) ||
         xmlStrEqual (node->ns->href, BAD_CAST XINCLUDE_NS_2003)))
      return node;
    if (node->type == XML_ELEMENT_NODE && (found = find_forbidden_node (node->children)))
      return found;
  }
  return NULL;
}

/* Checks a parsed document against what a safe document may hold; fills errors. A second
 * line behind the SAX hooks of new_safe_parser, which refuse DTDs and declarations first
 * (with the declaration's name and line): these refusals are reached only if a hook
 * were bypassed. */
static gboolean
check_safe (xmlDocPtr doc, xmlParserCtxtPtr ctxt, NsXmlErrors *errors)
{
  xmlDtdPtr dtd = doc->intSubset;
  xmlNodePtr bad;

  if (doc->extSubset != NULL ||
      (dtd != NULL && (dtd->ExternalID != NULL || dtd->SystemID != NULL))) {
    errors->message = g_strdup ("DOCTYPE refers to an external DTD; external DTDs are not "
                                "allowed");
    errors->line = dtd != NULL ? xmlGetLineNo ((xmlNodePtr) dtd) : 1;
    return FALSE;
  }
  if (dtd != NULL && (dtd->entities != NULL || dtd->pentities != NULL)) {
    errors->message = g_strdup ("DOCTYPE declares entities; entity declarations are not "
                                "allowed");
    errors->line = xmlGetLineNo ((xmlNodePtr) dtd);
    return FALSE;
  }
  if (dtd != NULL && (dtd->elements != NULL || dtd->attributes != NULL ||
                      dtd->notations != NULL)) {
    errors->message = g_strdup ("DOCTYPE declares elements, attributes or notations; the "
                                "internal DTD subset must be empty");
    errors->line = 1;
    return FALSE;
  }
  if (ctxt->hasPErefs) {
    errors->message = g_strdup ("DOCTYPE uses parameter entity references; they are not "
                                "allowed");
    errors->line = dtd != NULL ? xmlGetLineNo ((xmlNodePtr) dtd) : 1;
    return FALSE;
  }
  bad = find_forbidden_node (doc->children);
  if (bad != NULL) {
    if (bad->type == XML_ENTITY_REF_NODE)
      errors->message = g_strdup_printf ("entity reference '&%s;' is not allowed",
                                         bad->name);
    else
      errors->message = g_strdup_printf ("XInclude element '%s' is not allowed (netsim "
                                         "does not process XInclude)", bad->name);
    errors->line = xmlGetLineNo (bad);
    return FALSE;
  }
  if (xmlDocGetRootElement (doc) == NULL) {
    errors->message = g_strdup ("document has no root element");
    return FALSE;
  }
  return TRUE;
}

/* Creates a parser context whose SAX handler refuses DTDs and entity declarations and
 * reports errors to errors. */
static xmlParserCtxtPtr
new_safe_parser (NsXmlErrors *errors)
{
  xmlParserCtxtPtr ctxt = xmlNewParserCtxt ();

  if (ctxt == NULL)
    return NULL;
  ctxt->_private = errors;
  ctxt->sax->serror = on_parser_error;
  ctxt->sax->internalSubset = on_internal_subset;
  ctxt->sax->entityDecl = on_entity_decl;
  ctxt->sax->attributeDecl = on_attribute_decl;
  ctxt->sax->elementDecl = on_element_decl;
  ctxt->sax->notationDecl = on_notation_decl;
  ctxt->sax->externalSubset = NULL;
  ctxt->sax->resolveEntity = NULL;
  ctxt->sax->initialized = XML_SAX2_MAGIC;
  return ctxt;
}

/* ---- where start tags and attributes begin ----
 * libxml2 gives an element the line its start tag *ends* on, and an attribute none. A
 * walk of the file's text alongside the parsed tree (the same start tags in the same
 * order: netsim refuses the entities that could make them differ) gives each element the
 * line of its '<' and each attribute value's text node the line of the attribute's name,
 * both kept in the tree (node->line), so that copies and later reads need no text. */

/* A place in a document's text, with its line. */
typedef struct {
  const char *p, *end;
  int         line;
} TextPos;

/* Steps pos over one byte, counting XML's line ends (LF, CR LF, lone CR). */
static void
text_step (TextPos *pos)
{
  if (*pos->p == '\n' || (*pos->p == '\r' && (pos->p + 1 == pos->end || pos->p[1] != '\n')))
    pos->line++;
  pos->p++;
}

/* TRUE if the text at pos begins with token. */
static gboolean
text_at (const TextPos *pos, const char *token)
{
  gsize n = strlen (token);

  return (gsize) (pos->end - pos->p) >= n && memcmp (pos->p, token, n) == 0;
}

/* Steps pos past the next token (to the end if there is none). */
static void
text_skip_past (TextPos *pos, const char *token)
{
  while (pos->p < pos->end && !text_at (pos, token))
    text_step (pos);
  for (gsize i = strlen (token); i > 0 && pos->p < pos->end; i--)
    text_step (pos);
}

/* Steps pos over white space. */
static void
text_skip_space (TextPos *pos)
{
  while (pos->p < pos->end && g_ascii_isspace (*pos->p))
    text_step (pos);
}

/* Steps pos past a <!DOCTYPE …> (its '>' outside quotes, comments and the internal
 * subset's brackets). */
static void
text_skip_doctype (TextPos *pos)
{
  int depth = 0;

  while (pos->p < pos->end) {
    char c = *pos->p;

    if (text_at (pos, "<!--")) {
      text_skip_past (pos, "-->");
      continue;
    }
    if (c == '"' || c == '\'') {
      char quote[2] = { c, '\0' };

      text_step (pos);
      text_skip_past (pos, quote);
      continue;
    }
    depth += c == '[' ? 1 : c == ']' ? -1 : 0;
    text_step (pos);
    if (c == '>' && depth <= 0)
      return;
  }
}

/* Moves pos to the '<' of the next start tag (past text, comments, processing
 * instructions, CDATA, the DOCTYPE and end tags); FALSE if there is none. */
static gboolean
text_next_start_tag (TextPos *pos)
{
  while (pos->p < pos->end) {
    if (*pos->p != '<')
      text_step (pos);
    else if (text_at (pos, "<!--"))
      text_skip_past (pos, "-->");
    else if (text_at (pos, "<![CDATA["))
      text_skip_past (pos, "]]>");
    else if (text_at (pos, "<!"))
      text_skip_doctype (pos);
    else if (text_at (pos, "<?"))
      text_skip_past (pos, "?>");
    else if (text_at (pos, "</"))
      text_skip_past (pos, ">");
    else
      return TRUE;
  }
  return FALSE;
}

/* Steps pos over a name (to white space, '=', '/' or '>'); its length. */
static gsize
text_name (TextPos *pos)
{
  const char *start = pos->p;

  while (pos->p < pos->end && !g_ascii_isspace (*pos->p) && *pos->p != '=' &&
         *pos->p != '/' && *pos->p != '>')
    text_step (pos);
  return (gsize) (pos->p - start);
}

/* TRUE if the written name (len bytes, perhaps PREFIX:LOCAL) is local. */
static gboolean
names_local (const char *written, gsize len, const xmlChar *local)
{
  const char *colon = memchr (written, ':', len);
  const char *name = colon != NULL ? colon + 1 : written;
  gsize n = len - (gsize) (name - written);

  return n == strlen ((const char *) local) && memcmp (name, local, n) == 0;
}

/* Steps pos over one attribute (at its name) of element node's start tag; gives *attr (the
 * next attribute node, then the one after) the line of its name, unless the attribute is
 * a namespace declaration (no attribute node). FALSE if the text is not one. */
static gboolean
stamp_attribute (TextPos *pos, xmlAttrPtr *attr)
{
  const char *name = pos->p;
  int line = pos->line;
  gsize len = text_name (pos);
  char quote[2] = { '\0', '\0' };
  gboolean xmlns = (len == 5 && !memcmp (name, "xmlns", 5)) || (len > 6 &&
                                                                 !memcmp (name, "xmlns:", 6));

  text_skip_space (pos);
  if (len == 0 || pos->p == pos->end || *pos->p != '=')
    return FALSE;
  text_step (pos);
  text_skip_space (pos);
  if (pos->p == pos->end || (*pos->p != '"' && *pos->p != '\''))
    return FALSE;
  quote[0] = *pos->p;
  text_step (pos);
  text_skip_past (pos, quote);           /* a value may hold '>' and line breaks */
  if (xmlns)
    return TRUE;
  if (*attr == NULL || !names_local (name, len, (*attr)->name))
    return FALSE;
  if ((*attr)->children != NULL && (*attr)->children->type == XML_TEXT_NODE && line < 65535)
    (*attr)->children->line = (unsigned short) line;
  *attr = (*attr)->next;
  return TRUE;
}

/* Reads the start tag at pos (its '<') as element node's: gives node the line of its '<'
 * and its attributes theirs (stamp_attribute); FALSE if the tag is not node's. */
static gboolean
stamp_tag (TextPos *pos, xmlNodePtr node)
{
  int line = pos->line;
  const char *name;
  xmlAttrPtr attr = node->properties;

  text_step (pos);
  name = pos->p;
  if (!names_local (name, text_name (pos), node->name))
    return FALSE;
  if (line < 65535)                 /* larger lines stay as XML_PARSE_BIG_LINES keeps them */
    node->line = (unsigned short) line;
  for (;;) {
    text_skip_space (pos);
    if (pos->p == pos->end)
      return FALSE;
    if (*pos->p == '/' || *pos->p == '>') {
      text_skip_past (pos, ">");
      return attr == NULL;
    }
    if (!stamp_attribute (pos, &attr))
      return FALSE;
  }
}

/* Stamps node and its following siblings, and their descendants, from the start tags at
 * pos onwards (document order); FALSE where text and tree part ways. */
static gboolean
stamp_elements (TextPos *pos, xmlNodePtr node)
{
  for (; node != NULL; node = node->next) {
    if (node->type != XML_ELEMENT_NODE)
      continue;
    if (!text_next_start_tag (pos) || !stamp_tag (pos, node) ||
        !stamp_elements (pos, node->children))
      return FALSE;
  }
  return TRUE;
}

/* Gives doc's elements and attributes the lines they begin on in text (length bytes, the
 * file doc was parsed from); where text and tree part ways (an encoding other than
 * UTF-8's ASCII bytes), the rest keep libxml2's lines. */
static void
stamp_lines (xmlDocPtr doc, const char *text, gsize length)
{
  TextPos pos = { text, text + length, 1 };

  stamp_elements (&pos, xmlDocGetRootElement (doc));
}

/* Counts the attributes of the start tag at pos (its '<': the '=' outside quoted values)
 * and moves pos past it; stops counting past MAX_ATTRIBUTES. */
static guint
text_count_attributes (TextPos *pos)
{
  guint n = 0;

  text_step (pos);
  while (pos->p < pos->end && *pos->p != '>' && n <= MAX_ATTRIBUTES) {
    char c = *pos->p;
    text_step (pos);
    if (c == '=')
      n++;
    else if (c == '"' || c == '\'') {
      char quote[2] = { c, '\0' };
      text_skip_past (pos, quote);
    }
  }
  return n;
}

/* The line of the first start tag in text (length bytes) with more than MAX_ATTRIBUTES
 * attributes, read before libxml2 builds them; 0 if none has. */
static int
too_many_attributes (const char *text, gsize length)
{
  TextPos pos = { text, text + length, 1 };

  while (text_next_start_tag (&pos)) {
    int line = pos.line;
    if (text_count_attributes (&pos) > MAX_ATTRIBUTES)
      return line;
  }
  return 0;
}

/* Gives the attribute values below copy (xmlCopyDoc's copy of orig's tree) the lines of
 * orig's, which xmlCopyDoc does not copy (it does an element's). */
static void
copy_attribute_lines (xmlNodePtr orig, xmlNodePtr copy)
{
  for (; orig != NULL && copy != NULL; orig = orig->next, copy = copy->next) {
    xmlAttrPtr a = orig->type == XML_ELEMENT_NODE ? orig->properties : NULL;
    xmlAttrPtr b = copy->type == XML_ELEMENT_NODE ? copy->properties : NULL;

    for (; a != NULL && b != NULL; a = a->next, b = b->next)
      if (a->children != NULL && b->children != NULL)
        b->children->line = a->children->line;
    if (orig->type == XML_ELEMENT_NODE)
      copy_attribute_lines (orig->children, copy->children);
  }
}

/* A copy of doc with its lines (elements' and attributes'); see xml.h. */
xmlDocPtr
ns_xml_copy_doc (xmlDocPtr doc)
{
  xmlDocPtr copy;

  g_return_val_if_fail (doc != NULL, NULL);

  copy = xmlCopyDoc (doc, 1);
  if (copy != NULL)
    copy_attribute_lines (xmlDocGetRootElement (doc), xmlDocGetRootElement (copy));
  return copy;
}

/* Parses path safely (no network, DTDs, entities or XInclude): a document to free with
 * xmlFreeDoc, or NULL with a "path:line: message" error. */
xmlDocPtr
ns_xml_parse_file (const char *path, GError **error)
{
  NsXmlErrors errors = { .file = path };
  NsXmlGuard guard;
  xmlParserCtxtPtr ctxt = NULL;
  xmlDocPtr doc = NULL;
  char *contents = NULL;
  gsize length = 0;
  int crowded;
  const int options = XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES |
                      XML_PARSE_NOWARNING | XML_PARSE_NOERROR;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!read_file (path, &contents, &length, error))
    return NULL;
  if (length == 0)
    goto error_empty;
  if (length > G_MAXINT)
    goto error_parse;
  if ((crowded = too_many_attributes (contents, length)) > 0)
    goto error_attributes;

  guard_install (&guard, &errors, TRUE);
  ctxt = new_safe_parser (&errors);
  if (ctxt != NULL)
    doc = xmlCtxtReadMemory (ctxt, contents, (int) length, path, NULL, options);
  if (doc != NULL && (errors.message != NULL || !ctxt->wellFormed ||
                      !check_safe (doc, ctxt, &errors)))
    g_clear_pointer (&doc, xmlFreeDoc);
  if (ctxt != NULL)
    xmlFreeParserCtxt (ctxt);
  guard_remove (&guard);
  if (doc == NULL)
    goto error_parse;
  stamp_lines (doc, contents, length);
  g_free (contents);
  return doc;

/* ERRORS */
error_empty:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:1: file is empty (expected an XML "
               "document)", path);
  g_free (contents);
  return NULL;
error_attributes:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%d: a start tag with more than %d "
               "attributes (no element netsim reads has so many)", path, crowded,
               MAX_ATTRIBUTES);
  g_free (contents);
  return NULL;
error_parse:
  errors_to_gerror (&errors, "not a well-formed XML document", error);
  g_free (errors.message);
  g_free (contents);
  return NULL;
}

/* Line number of node (an attribute: its own, where the file gave it one), else of its
 * nearest ancestor that has one; 0 if unknown or NULL. */
int
ns_xml_line (xmlNodePtr node)
{
  long line;

  if (node == NULL)
    return 0;
  if (node->type == XML_ATTRIBUTE_NODE) {
    xmlNodePtr value = node->children;       /* a value a set wrote has line 0 */

    if (value != NULL && value->type == XML_TEXT_NODE && value->line > 0 &&
        value->line < 65535)
      return value->line;
    return ns_xml_line (node->parent);
  }
  line = xmlGetLineNo (node);
  if (line <= 0 && node->parent != NULL && node->type != XML_DOCUMENT_NODE)
    return ns_xml_line (node->parent);
  return line > 0 && line <= G_MAXINT ? (int) line : 0;
}

/* The line of attribute attr of node, else node's; see xml.h. */
int
ns_xml_attr_line (xmlNodePtr node, const char *attr)
{
  xmlAttrPtr a = ns_xml_attr (node, attr);

  return ns_xml_line (a != NULL ? (xmlNodePtr) a : node);
}

/* Path of a shipped schema: <ns_data_dir ()>/scenarios/schema_name; newly allocated. */
char *
ns_xml_schema_path (const char *schema_name)
{
  g_return_val_if_fail (schema_name != NULL, NULL);

  return g_build_filename (ns_data_dir (), "scenarios", schema_name, NULL);
}


/* ------------------------------------------------------------------------------------ */
/* Validation.  libxml2 decides whether a document is valid; when it is not, an explainer
 * walks the document alongside the schema (the RelaxNG subset netsim's schemas use) to
 * name the first problem precisely.  Attribute values are judged by compiling the
 * attribute's own pattern into a one-element probe schema, so the schema stays the only
 * definition of what is valid.  An n:expect="..." annotation on an <attribute> or <define>
 * of the schema is the wording used after "expected". */

#define RNG_NS        "http://relaxng.org/ns/structure/1.0"
#define ANNOTATION_NS "urn:netsim:schema-annotations"
#define UNBOUNDED     G_MAXUINT
#define MAX_DEPTH     64

typedef struct {
  xmlNodePtr  pattern;       /* the <element> pattern */
  const char *name;          /* NULL: any name */
  guint       min, max;
} Particle;

typedef struct {
  xmlNodePtr  pattern;       /* the <attribute> pattern */
  const char *name;          /* NULL: any name */
  gboolean    required;
} AttrPattern;

/* A <choice> between attributes or groups of them (value+source or from, say): each
 * alternative's attributes, required within it. */
typedef struct {
  GPtrArray  *alts;          /* GArray of AttrPattern, one per alternative */
  gboolean    required;      /* one alternative must be given */
} AttrChoice;

/* What an element pattern allows, flattened. */
typedef struct {
  GArray     *attrs;         /* AttrPattern (those of an AttrChoice too, as optional) */
  GPtrArray  *choices;       /* AttrChoice */
  GArray     *particles;     /* Particle, in order */
  xmlNodePtr  data;          /* <data>, <value>, <list> or value <choice> content */
  gboolean    text;          /* text allowed */
  gboolean    unordered;     /* <interleave>: children in any order */
} Content;

typedef struct {
  xmlDocPtr    schema;
  GHashTable  *defines;      /* name → <define> node */
  char        *message;      /* the first problem found */
  xmlNodePtr   node;         /* where (element or attribute) */
} Explainer;

/* TRUE if node is a RelaxNG element named name (any RelaxNG element if name is NULL). */
static gboolean
is_rng (xmlNodePtr node, const char *name)
{
  return node != NULL && node->type == XML_ELEMENT_NODE && node->ns != NULL &&
         xmlStrEqual (node->ns->href, BAD_CAST RNG_NS) &&
         (name == NULL || xmlStrEqual (node->name, BAD_CAST name));
}

/* First RelaxNG element among node and its following siblings. */
static xmlNodePtr
next_rng (xmlNodePtr node)
{
  while (node != NULL && !is_rng (node, NULL))
    node = node->next;
  return node;
}

/* The literal name of an <element>/<attribute> pattern, or NULL for a name class. */
static const char *
pattern_name (xmlNodePtr pattern)
{
  xmlNodePtr first;
  xmlAttrPtr attr = xmlHasProp (pattern, BAD_CAST "name");

  if (attr != NULL && attr->children != NULL)
    return (const char *) attr->children->content;
  first = next_rng (pattern->children);
  if (is_rng (first, "name") && first->children != NULL)
    return (const char *) first->children->content;
  return NULL;
}

/* The content patterns of an <element>/<attribute> pattern (after its name class). */
static xmlNodePtr
pattern_content (xmlNodePtr pattern)
{
  xmlNodePtr first = next_rng (pattern->children);

  if (xmlHasProp (pattern, BAD_CAST "name") == NULL && first != NULL)
    first = next_rng (first->next);
  return first;
}

/* Records the first problem found: node and message. */
static gboolean
explain_fail (Explainer *ex, xmlNodePtr node, const char *format, ...) G_GNUC_PRINTF (3, 4);

/* Keeps node and the formatted message unless a problem is already recorded; FALSE. */
static gboolean
explain_fail (Explainer *ex, xmlNodePtr node, const char *format, ...)
{
  va_list args;

  if (ex->message == NULL) {
    va_start (args, format);
    ex->message = g_strdup_vprintf (format, args);
    va_end (args);
    ex->node = node;
  }
  return FALSE;
}

/* Indexes every <define> of the schema by name. */
static void
index_defines (GHashTable *defines, xmlNodePtr node)
{
  for (; node != NULL; node = node->next) {
    if (is_rng (node, "define")) {
      xmlChar *name = xmlGetProp (node, BAD_CAST "name");

      if (name != NULL && !g_hash_table_contains (defines, name))
        g_hash_table_insert (defines, g_strdup ((char *) name), node);
      xmlFree (name);
    } else if (is_rng (node, "grammar") || is_rng (node, "div")) {
      index_defines (defines, node->children);
    }
  }
}

/* The <define> a <ref> names, or NULL. */
static xmlNodePtr
lookup_define (Explainer *ex, xmlNodePtr ref)
{
  xmlChar *name = xmlGetProp (ref, BAD_CAST "name");
  xmlNodePtr define = name != NULL ? g_hash_table_lookup (ex->defines, name) : NULL;

  xmlFree (name);
  return define;
}

/* TRUE if every RelaxNG child of choice is a <value> or <data>. */
static gboolean
is_value_choice (xmlNodePtr choice)
{
  for (xmlNodePtr n = next_rng (choice->children); n != NULL; n = next_rng (n->next))
    if (!is_rng (n, "value") && !is_rng (n, "data"))
      return FALSE;
  return TRUE;
}

/* TRUE if every RelaxNG child of choice is an <attribute> or a non-empty <group> of them
 * only. */
static gboolean
is_attribute_choice (xmlNodePtr choice)
{
  for (xmlNodePtr n = next_rng (choice->children); n != NULL; n = next_rng (n->next)) {
    if (is_rng (n, "group")) {
      if (next_rng (n->children) == NULL)
        return FALSE;
      for (xmlNodePtr a = next_rng (n->children); a != NULL; a = next_rng (a->next))
        if (!is_rng (a, "attribute"))
          return FALSE;
    } else if (!is_rng (n, "attribute")) {
      return FALSE;
    }
  }
  return TRUE;
}

/* Frees an AttrChoice. */
static void
attr_choice_free (gpointer p)
{
  AttrChoice *choice = p;

  g_ptr_array_unref (choice->alts);
  g_free (choice);
}

/* Adds the <attribute> pattern a to alt (required there) and to c->attrs (optional). */
static void
add_alternative_attribute (Content *c, GArray *alt, xmlNodePtr a)
{
  AttrPattern in_alt = { a, pattern_name (a), TRUE }, in_c = { a, pattern_name (a), FALSE };

  g_array_append_val (alt, in_alt);
  g_array_append_val (c->attrs, in_c);
}

/* Adds the attribute choice at node to c: its alternatives, and their attributes to
 * c->attrs as optional ones. */
static void
collect_attribute_choice (Content *c, xmlNodePtr node, gboolean optional)
{
  AttrChoice *choice = g_new0 (AttrChoice, 1);

  choice->alts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  choice->required = !optional;
  for (xmlNodePtr n = next_rng (node->children); n != NULL; n = next_rng (n->next)) {
    GArray *alt = g_array_new (FALSE, TRUE, sizeof (AttrPattern));

    if (is_rng (n, "group"))
      for (xmlNodePtr a = next_rng (n->children); a != NULL; a = next_rng (a->next))
        add_alternative_attribute (c, alt, a);
    else
      add_alternative_attribute (c, alt, n);
    g_ptr_array_add (choice->alts, alt);
  }
  g_ptr_array_add (c->choices, choice);
}

/* Adds the attributes and child particles of the patterns starting at node to c. */
static void
collect (Explainer *ex, xmlNodePtr node, Content *c, gboolean optional, gboolean repeat,
         int depth)
{
  if (depth > MAX_DEPTH)
    return;
  for (node = next_rng (node); node != NULL; node = next_rng (node->next)) {
    const char *kind = (const char *) node->name;

    if (g_str_equal (kind, "attribute")) {
      AttrPattern a = { node, pattern_name (node), !optional };

      g_array_append_val (c->attrs, a);
    } else if (g_str_equal (kind, "element")) {
      Particle p = { node, pattern_name (node), optional ? 0 : 1, repeat ? UNBOUNDED : 1 };

      g_array_append_val (c->particles, p);
    } else if (g_str_equal (kind, "optional") || g_str_equal (kind, "zeroOrMore")) {
      collect (ex, node->children, c, TRUE, repeat || kind[0] == 'z', depth + 1);
    } else if (g_str_equal (kind, "oneOrMore")) {
      collect (ex, node->children, c, optional, TRUE, depth + 1);
    } else if (g_str_equal (kind, "group")) {
      collect (ex, node->children, c, optional, repeat, depth + 1);
    } else if (g_str_equal (kind, "interleave")) {
      c->unordered = TRUE;
      collect (ex, node->children, c, optional, repeat, depth + 1);
    } else if (g_str_equal (kind, "choice") && is_value_choice (node)) {
      c->data = node;
    } else if (g_str_equal (kind, "choice") && is_attribute_choice (node)) {
      collect_attribute_choice (c, node, optional);
    } else if (g_str_equal (kind, "choice")) {
      collect (ex, node->children, c, TRUE, repeat, depth + 1);
    } else if (g_str_equal (kind, "ref")) {
      xmlNodePtr define = lookup_define (ex, node);

      if (define != NULL)
        collect (ex, define->children, c, optional, repeat, depth + 1);
    } else if (g_str_equal (kind, "text")) {
      c->text = TRUE;
    } else if (g_str_equal (kind, "mixed")) {
      c->text = TRUE;
      collect (ex, node->children, c, optional, repeat, depth + 1);
    } else if (g_str_equal (kind, "data") || g_str_equal (kind, "value") ||
               g_str_equal (kind, "list")) {
      c->data = node;
    }
  }
}

/* Initialises c with what the element pattern allows. */
static void
content_init (Explainer *ex, Content *c, xmlNodePtr pattern)
{
  c->attrs = g_array_new (FALSE, TRUE, sizeof (AttrPattern));
  c->particles = g_array_new (FALSE, TRUE, sizeof (Particle));
  c->choices = g_ptr_array_new_with_free_func (attr_choice_free);
  c->data = NULL;
  c->text = FALSE;
  c->unordered = FALSE;
  collect (ex, pattern, c, FALSE, FALSE, 0);
}

/* Releases what content_init allocated. */
static void
content_clear (Content *c)
{
  g_array_free (c->attrs, TRUE);
  g_array_free (c->particles, TRUE);
  g_ptr_array_unref (c->choices);
}

/* The n:expect annotation of node, or NULL; newly allocated. */
static char *
annotation (xmlNodePtr node)
{
  xmlChar *text = xmlGetNsProp (node, BAD_CAST "expect", BAD_CAST ANNOTATION_NS);
  char *copy = text != NULL ? g_strdup ((char *) text) : NULL;

  xmlFree (text);
  return copy;
}

/* A phrase for an XML Schema datatype name ("a positive integer"). */
static const char *
describe_type (const char *type)
{
  static const char *const names[][2] = {
    { "positiveInteger", "a positive integer" },
    { "nonNegativeInteger", "a non-negative integer" },
    { "unsignedLong", "a non-negative integer" },
    { "unsignedInt", "a non-negative integer" },
    { "integer", "an integer" },
    { "int", "an integer" },
    { "long", "an integer" },
    { "decimal", "a decimal number" },
    { "double", "a number" },
    { "float", "a number" },
    { "boolean", "true or false" },
    { "token", "a name" },
    { "NCName", "a name" },
    { "anyURI", "a URI" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (type != NULL && g_str_equal (type, names[i][0]))
      return names[i][1];
  return "a text value";
}

/* Describes a <data> pattern with its facets ("a positive integer ≤ 10"). */
static char *
describe_data (xmlNodePtr data)
{
  static const char *const facets[][2] = {
    { "minInclusive", "≥" }, { "minExclusive", ">" },
    { "maxInclusive", "≤" }, { "maxExclusive", "<" },
  };
  xmlChar *type = xmlGetProp (data, BAD_CAST "type");
  const char *base = describe_type ((char *) type);
  GString *text;

  /* a textual type constrained by a pattern is best described by the pattern alone */
  for (xmlNodePtr p = next_rng (data->children); p != NULL; p = next_rng (p->next)) {
    xmlChar *facet = xmlGetProp (p, BAD_CAST "name");

    if (facet != NULL && xmlStrEqual (facet, BAD_CAST "pattern") &&
        (g_str_equal (base, "a name") || g_str_equal (base, "a text value")))
      base = "a value";
    xmlFree (facet);
  }
  text = g_string_new (base);

  for (xmlNodePtr p = next_rng (data->children); p != NULL; p = next_rng (p->next)) {
    xmlChar *facet = xmlGetProp (p, BAD_CAST "name");
    xmlChar *value = xmlNodeGetContent (p);

    for (gsize i = 0; facet != NULL && value != NULL && i < G_N_ELEMENTS (facets); i++)
      if (is_rng (p, "param") && xmlStrEqual (facet, BAD_CAST facets[i][0]))
        g_string_append_printf (text, " %s %s", facets[i][1], (char *) value);
    if (is_rng (p, "param") && facet != NULL && xmlStrEqual (facet, BAD_CAST "pattern"))
      g_string_append_printf (text, " matching '%s'", (char *) value);
    xmlFree (facet);
    xmlFree (value);
  }
  xmlFree (type);
  return g_string_free (text, FALSE);
}

/* Describes what a value pattern accepts, for "expected ..." messages. */
static char *
describe (Explainer *ex, xmlNodePtr pattern, int depth)
{
  char *note = annotation (pattern);

  if (note != NULL || depth > MAX_DEPTH)
    return note != NULL ? note : g_strdup ("a valid value");
  if (is_rng (pattern, "attribute") || is_rng (pattern, "define") ||
      is_rng (pattern, "element")) {
    xmlNodePtr inner = is_rng (pattern, "define") ? next_rng (pattern->children)
                                                   : pattern_content (pattern);

    return inner != NULL ? describe (ex, inner, depth + 1) : g_strdup ("text");
  }
  if (is_rng (pattern, "ref")) {
    xmlNodePtr define = lookup_define (ex, pattern);

    return define != NULL ? describe (ex, define, depth + 1) : g_strdup ("a valid value");
  }
  if (is_rng (pattern, "data"))
    return describe_data (pattern);
  if (is_rng (pattern, "value") || (is_rng (pattern, "choice") && is_value_choice (pattern))) {
    GString *text = g_string_new (is_rng (pattern, "value") ? "" : "one of: ");
    xmlNodePtr first = is_rng (pattern, "value") ? pattern : next_rng (pattern->children);

    for (xmlNodePtr v = first; v != NULL; v = next_rng (v->next)) {
      xmlChar *value = xmlNodeGetContent (v);

      if (is_rng (v, "value"))
        g_string_append_printf (text, "%s%s", v == first ? "" : ", ", (char *) value);
      xmlFree (value);
      if (v == pattern)
        break;
    }
    return g_string_free (text, FALSE);
  }
  return g_strdup (is_rng (pattern, "text") ? "text" : "a valid value");
}

/* The datatypeLibrary in effect at node. */
static xmlChar *
datatype_library (xmlNodePtr node)
{
  for (; node != NULL && node->type == XML_ELEMENT_NODE; node = node->parent)
    if (xmlHasProp (node, BAD_CAST "datatypeLibrary"))
      return xmlGetProp (node, BAD_CAST "datatypeLibrary");
  return NULL;
}

/* Builds a schema with the original's defines whose start is <element name="probe">
 * holding a copy of pattern. */
static xmlDocPtr
probe_schema (Explainer *ex, xmlNodePtr pattern)
{
  xmlDocPtr doc = xmlNewDoc (BAD_CAST "1.0");
  xmlNodePtr grammar = xmlNewDocNode (doc, NULL, BAD_CAST "grammar", NULL);
  xmlNsPtr ns = xmlNewNs (grammar, BAD_CAST RNG_NS, NULL);
  xmlNodePtr start, element;
  xmlChar *library = datatype_library (pattern);
  GHashTableIter iter;
  gpointer define;

  xmlSetNs (grammar, ns);
  xmlDocSetRootElement (doc, grammar);
  g_hash_table_iter_init (&iter, ex->defines);
  while (g_hash_table_iter_next (&iter, NULL, &define)) {
    xmlNodePtr copy = xmlDocCopyNode (define, doc, 1);
    xmlChar *def_library = datatype_library (define);

    if (def_library != NULL && !xmlHasProp (copy, BAD_CAST "datatypeLibrary"))
      xmlSetProp (copy, BAD_CAST "datatypeLibrary", def_library);
    xmlFree (def_library);
    xmlAddChild (grammar, copy);
  }
  start = xmlNewChild (grammar, ns, BAD_CAST "start", NULL);
  element = xmlNewChild (start, ns, BAD_CAST "element", NULL);
  xmlSetProp (element, BAD_CAST "name", BAD_CAST "probe");
  if (library != NULL)
    xmlSetProp (element, BAD_CAST "datatypeLibrary", library);
  xmlAddChild (element, xmlDocCopyNode (pattern, doc, 1));
  xmlFree (library);
  return doc;
}

/* TRUE if value matches pattern (an <attribute> pattern when attr is set, else element
 * content), or if that cannot be decided. */
static gboolean
probe_value (Explainer *ex, xmlNodePtr pattern, const char *attr, const char *value)
{
  NsXmlErrors sink = { .file = "probe" };
  xmlDocPtr sdoc = probe_schema (ex, pattern);
  xmlDocPtr idoc = xmlNewDoc (BAD_CAST "1.0");
  xmlNodePtr root = xmlNewDocNode (idoc, NULL, BAD_CAST "probe", NULL);
  xmlRelaxNGParserCtxtPtr pctxt = xmlRelaxNGNewDocParserCtxt (sdoc);
  xmlRelaxNGPtr schema = NULL;
  gboolean ok = TRUE;

  xmlDocSetRootElement (idoc, root);
  if (attr != NULL)
    xmlSetProp (root, BAD_CAST attr, BAD_CAST value);
  else
    xmlNodeAddContent (root, BAD_CAST value);
  if (pctxt != NULL) {
    xmlRelaxNGSetParserStructuredErrors (pctxt, on_error, &sink);
    schema = xmlRelaxNGParse (pctxt);
    xmlRelaxNGFreeParserCtxt (pctxt);
  }
  if (schema != NULL) {
    xmlRelaxNGValidCtxtPtr vctxt = xmlRelaxNGNewValidCtxt (schema);

    xmlRelaxNGSetValidStructuredErrors (vctxt, on_error, &sink);
    ok = xmlRelaxNGValidateDoc (vctxt, idoc) == 0;
    xmlRelaxNGFreeValidCtxt (vctxt);
    xmlRelaxNGFree (schema);
  }
  g_free (sink.message);
  xmlFreeDoc (idoc);
  xmlFreeDoc (sdoc);
  return ok;
}

/* A value quoted for a message: escaped and cut to a readable length. */
static char *
quote_value (const char *value)
{
  char *escaped = g_strescape (value != NULL ? value : "", "\"");
  char *quoted;

  if (g_utf8_strlen (escaped, -1) > 60) {
    char *cut = g_utf8_substring (escaped, 0, 57);

    quoted = g_strdup_printf ("'%s...'", cut);
    g_free (cut);
  } else {
    quoted = g_strdup_printf ("'%s'", escaped);
  }
  g_free (escaped);
  return quoted;
}

/* Comma-separated names of the named attributes (or particles) of c. */
static char *
list_names (const Content *c, gboolean attributes)
{
  GString *text = g_string_new (NULL);
  guint n = attributes ? c->attrs->len : c->particles->len;

  for (guint i = 0; i < n; i++) {
    const char *name = attributes ? g_array_index (c->attrs, AttrPattern, i).name
                                  : g_array_index (c->particles, Particle, i).name;

    if (name != NULL && !strstr (text->str, name))
      g_string_append_printf (text, "%s%s", text->len > 0 ? ", " : "", name);
  }
  return g_string_free (text, FALSE);
}

/* The attribute pattern for name in c (named ones first, then any-name ones). */
static AttrPattern *
find_attr (const Content *c, const char *name)
{
  AttrPattern *wildcard = NULL;

  for (guint i = 0; i < c->attrs->len; i++) {
    AttrPattern *a = &g_array_index (c->attrs, AttrPattern, i);

    if (a->name != NULL && g_str_equal (a->name, name))
      return a;
    if (a->name == NULL && wildcard == NULL)
      wildcard = a;
  }
  return wildcard;
}

/* The first attribute of alt that inst has, or NULL. */
static const char *
alt_given (xmlNodePtr inst, const GArray *alt)
{
  for (guint i = 0; i < alt->len; i++) {
    const char *name = g_array_index (alt, AttrPattern, i).name;

    if (name != NULL && ns_xml_attr (inst, name) != NULL)
      return name;
  }
  return NULL;
}

/* "'a', 'b' or 'c'": the first attribute of each alternative of choice. */
static char *
alt_firsts (const AttrChoice *choice)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < choice->alts->len; i++) {
    const GArray *alt = choice->alts->pdata[i];

    g_string_append_printf (text, "%s'%s'", i == 0 ? "" : i + 1 < choice->alts->len ? ", "
                            : " or ", g_array_index (alt, AttrPattern, 0).name);
  }
  return g_string_free (text, FALSE);
}

/* Checks that inst gives exactly one alternative of an attribute choice (at most one if
 * the choice is optional), and every attribute of it. */
static gboolean
explain_attribute_choice (Explainer *ex, xmlNodePtr inst, const AttrChoice *choice)
{
  const GArray *chosen = NULL;
  const char *chosen_name = NULL;

  for (guint i = 0; i < choice->alts->len; i++) {
    const char *name = alt_given (inst, choice->alts->pdata[i]);

    if (name != NULL && chosen != NULL)
      return explain_fail (ex, (xmlNodePtr) ns_xml_attr (inst, name), "element %s: attribute "
                           "'%s' cannot be given with '%s'", inst->name, name, chosen_name);
    if (name != NULL) {
      chosen = choice->alts->pdata[i];
      chosen_name = name;
    }
  }
  if (chosen == NULL && choice->required) {
    g_autofree char *firsts = alt_firsts (choice);
    return explain_fail (ex, inst, "element %s: missing required attribute %s", inst->name,
                         firsts);
  }
  for (guint i = 0; chosen != NULL && i < chosen->len; i++) {
    const AttrPattern *a = &g_array_index (chosen, AttrPattern, i);

    if (a->name != NULL && ns_xml_attr (inst, a->name) == NULL) {
      g_autofree char *expected = describe (ex, a->pattern, 0);
      return explain_fail (ex, inst, "element %s: missing required attribute '%s' (expected "
                           "%s)", inst->name, a->name, expected);
    }
  }
  return TRUE;
}

/* Checks each attribute of inst against c, then that required ones are present. */
static gboolean
explain_attributes (Explainer *ex, xmlNodePtr inst, const Content *c)
{
  for (xmlAttrPtr attr = inst->properties; attr != NULL; attr = attr->next) {
    const char *name = (const char *) attr->name;
    AttrPattern *a = find_attr (c, name);
    xmlChar *value;
    gboolean ok;

    if (a == NULL) {
      g_autofree char *allowed = list_names (c, TRUE);

      return explain_fail (ex, (xmlNodePtr) attr, "element %s: unknown attribute '%s' (%s%s)",
                           inst->name, name, allowed[0] ? "allowed: " : "it takes none",
                           allowed);
    }
    if (a->name == NULL)
      continue;
    value = xmlNodeGetContent ((xmlNodePtr) attr);
    ok = probe_value (ex, a->pattern, name, (const char *) value);
    if (!ok) {
      g_autofree char *expected = describe (ex, a->pattern, 0);
      g_autofree char *got = quote_value ((const char *) value);

      explain_fail (ex, (xmlNodePtr) attr, "element %s: attribute '%s': expected %s, got %s",
                    inst->name, name, expected, got);
    }
    xmlFree (value);
    if (!ok)
      return FALSE;
  }
  for (guint i = 0; i < c->attrs->len; i++) {
    AttrPattern *a = &g_array_index (c->attrs, AttrPattern, i);

    if (a->required && a->name != NULL && ns_xml_attr (inst, a->name) == NULL) {
      g_autofree char *expected = describe (ex, a->pattern, 0);

      return explain_fail (ex, inst, "element %s: missing required attribute '%s' (expected %s)",
                           inst->name, a->name, expected);
    }
  }
  for (guint i = 0; i < c->choices->len; i++)
    if (!explain_attribute_choice (ex, inst, c->choices->pdata[i]))
      return FALSE;
  return TRUE;
}

/* TRUE if particle p accepts an element named name. */
static gboolean
particle_matches (const Particle *p, const xmlChar *name)
{
  return p->name == NULL || xmlStrEqual (BAD_CAST p->name, name);
}

/* Index of the first particle from `from` that can take name, or -1; *missing is set to
 * a required particle that would have to be skipped. */
static int
next_particle (const Content *c, const guint *counts, guint from, const xmlChar *name,
               int *missing)
{
  *missing = -1;
  for (guint q = from; q < c->particles->len; q++) {
    const Particle *p = &g_array_index (c->particles, Particle, q);

    if (particle_matches (p, name) && counts[q] < p->max)
      return (int) q;
    if (!c->unordered && counts[q] < p->min) {
      *missing = (int) q;
      return -1;
    }
  }
  return -1;
}

/* Index of any particle in [from, to) that takes name, or -1. */
static int
any_particle (const Content *c, guint from, guint to, const xmlChar *name)
{
  for (guint q = from; q < to && q < c->particles->len; q++)
    if (particle_matches (&g_array_index (c->particles, Particle, q), name))
      return (int) q;
  return -1;
}

/* Explains why child cannot appear at this point in inst. */
static gboolean
explain_misplaced (Explainer *ex, xmlNodePtr inst, xmlNodePtr child, const Content *c,
                   const guint *counts, guint at, int missing)
{
  guint n = c->particles->len;
  int later = missing >= 0 ? any_particle (c, missing + 1, n, child->name) : -1;
  int earlier = any_particle (c, 0, at + 1, child->name);
  g_autofree char *allowed = list_names (c, FALSE);

  if (any_particle (c, 0, n, child->name) < 0)
    return explain_fail (ex, child, "element %s: unexpected element '%s' (%s%s)", inst->name,
                         child->name, allowed[0] ? "allowed: " : "it takes no elements",
                         allowed);
  if (later >= 0)
    return explain_fail (ex, child, "element %s: missing element '%s' before '%s'",
                         inst->name, g_array_index (c->particles, Particle, missing).name,
                         child->name);
  if (earlier >= 0 && g_array_index (c->particles, Particle, earlier).max == 1 &&
      counts[earlier] > 0)
    return explain_fail (ex, child, "element %s: element '%s' may appear only once",
                         inst->name, child->name);
  return explain_fail (ex, child, "element %s: element '%s' is out of order (expected "
                       "order: %s)", inst->name, child->name, allowed);
}

static gboolean explain_element (Explainer *ex, xmlNodePtr inst, xmlNodePtr pattern,
                                 int depth);

/* TRUE if text is only white space. */
static gboolean
is_blank (const xmlChar *text)
{
  for (; text != NULL && *text; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;
  return TRUE;
}

/* Checks the text and child elements of inst against c, recursing into children. */
static gboolean
explain_children (Explainer *ex, xmlNodePtr inst, const Content *c, int depth)
{
  g_autofree guint *counts = g_new0 (guint, c->particles->len + 1);
  guint at = 0;

  for (xmlNodePtr child = inst->children; child != NULL; child = child->next) {
    int q, missing;

    if ((child->type == XML_TEXT_NODE || child->type == XML_CDATA_SECTION_NODE) &&
        !c->text && c->data == NULL && !is_blank (child->content)) {
      g_autofree char *text = g_strstrip (g_strdup ((char *) child->content));
      g_autofree char *got = quote_value (text);

      return explain_fail (ex, inst, "element %s: unexpected text %s (it takes none)",
                           inst->name, got);
    }
    if (child->type != XML_ELEMENT_NODE)
      continue;
    q = next_particle (c, counts, c->unordered ? 0 : at, child->name, &missing);
    if (q < 0)
      return explain_misplaced (ex, inst, child, c, counts, at, missing);
    counts[q]++;
    at = c->unordered ? 0 : (guint) q;
    if (g_array_index (c->particles, Particle, q).name != NULL &&
        !explain_element (ex, child, g_array_index (c->particles, Particle, q).pattern,
                          depth + 1))
      return FALSE;
  }
  for (guint q = c->unordered ? 0 : at; q < c->particles->len; q++) {
    const Particle *p = &g_array_index (c->particles, Particle, q);

    if (counts[q] < p->min)
      return explain_fail (ex, inst, "element %s: missing required element '%s'",
                           inst->name, p->name != NULL ? p->name : "(any)");
  }
  return TRUE;
}

/* Checks element text against a data pattern of c. */
static gboolean
explain_data (Explainer *ex, xmlNodePtr inst, const Content *c)
{
  xmlChar *text;
  gboolean ok;

  if (c->data == NULL || c->particles->len > 0)
    return TRUE;
  text = xmlNodeGetContent (inst);
  ok = probe_value (ex, c->data, NULL, (const char *) text);
  if (!ok) {
    g_autofree char *expected = describe (ex, c->data, 0);
    g_autofree char *got = quote_value ((const char *) text);

    explain_fail (ex, inst, "element %s: expected %s, got %s", inst->name, expected, got);
  }
  xmlFree (text);
  return ok;
}

/* Checks inst against its element pattern; FALSE once a problem is recorded. */
static gboolean
explain_element (Explainer *ex, xmlNodePtr inst, xmlNodePtr pattern, int depth)
{
  Content c;
  gboolean ok;

  if (depth > MAX_DEPTH)
    return TRUE;
  content_init (ex, &c, pattern_content (pattern));
  ok = explain_attributes (ex, inst, &c) && explain_data (ex, inst, &c) &&
       explain_children (ex, inst, &c, depth);
  content_clear (&c);
  return ok;
}

/* Checks the root element of doc against the schema's start pattern. */
static gboolean
explain_document (Explainer *ex, xmlDocPtr doc)
{
  xmlNodePtr root = xmlDocGetRootElement (doc);
  xmlNodePtr grammar = xmlDocGetRootElement (ex->schema);
  xmlNodePtr start = grammar;
  Content c;
  int q;
  gboolean ok;

  if (is_rng (grammar, "grammar")) {
    for (start = next_rng (grammar->children); start && !is_rng (start, "start");
         start = next_rng (start->next))
      ;
    if (start == NULL)
      return TRUE;
    start = start->children;
  }
  content_init (ex, &c, start);
  q = any_particle (&c, 0, c.particles->len, root->name);
  if (q < 0) {
    g_autofree char *allowed = list_names (&c, FALSE);

    ok = explain_fail (ex, root, "expected root element '%s', got '%s'", allowed,
                       root->name);
  } else {
    Particle *p = &g_array_index (c.particles, Particle, q);

    ok = p->name == NULL || explain_element (ex, root, p->pattern, 0);
  }
  content_clear (&c);
  return ok;
}

/* Compiles the RelaxNG schema at rng_path (parsed safely into *schema_doc). */
static xmlRelaxNGPtr
load_schema (const char *rng_path, xmlDocPtr *schema_doc, GError **error)
{
  NsXmlErrors errors = { .file = rng_path };
  NsXmlGuard guard;
  xmlRelaxNGParserCtxtPtr pctxt;
  xmlRelaxNGPtr schema = NULL;

  *schema_doc = ns_xml_parse_file (rng_path, error);
  if (*schema_doc == NULL)
    return NULL;
  guard_install (&guard, &errors, FALSE);
  pctxt = xmlRelaxNGNewDocParserCtxt (*schema_doc);
  if (pctxt != NULL) {
    xmlRelaxNGSetParserStructuredErrors (pctxt, on_error, &errors);
    schema = xmlRelaxNGParse (pctxt);
    xmlRelaxNGFreeParserCtxt (pctxt);
  }
  guard_remove (&guard);
  if (schema == NULL) {
    g_clear_pointer (schema_doc, xmlFreeDoc);
    errors_to_gerror (&errors, "not a valid RelaxNG schema", error);
    if (error != NULL && *error != NULL)
      (*error)->code = NS_ERROR_INTERNAL;
    g_free (errors.message);
  }
  return schema;
}

/* Sets the error for an invalid doc: the explainer's account, else libxml2's. */
static void
report_invalid (xmlDocPtr doc, xmlDocPtr schema_doc, const NsXmlErrors *raw,
                const char *file, xmlNodePtr *bad_node, GError **error)
{
  Explainer ex = { .schema = schema_doc };
  int line;

  ex.defines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  index_defines (ex.defines, xmlDocGetRootElement (schema_doc));
  explain_document (&ex, doc);
  if (ex.message == NULL) {
    ex.message = g_strdup (raw->message != NULL ? raw->message
                                                : "document does not match its schema");
    ex.node = raw->node != NULL ? raw->node : xmlDocGetRootElement (doc);
  }
  line = ns_xml_line (ex.node);
  if (line <= 0)
    line = raw->line > 0 ? raw->line : ns_xml_line (xmlDocGetRootElement (doc));
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%d: %s", file, line, ex.message);
  if (bad_node != NULL)
    *bad_node = ex.node;
  g_free (ex.message);
  g_hash_table_unref (ex.defines);
}

/* TRUE if attribute a cannot be read as written: it is in a namespace (netsim's readers
 * look attributes up by their local name in none, so "x:filters" would be ignored) or its
 * value begins or ends with white space (the schema compares values trimmed, the readers
 * as written). */
static gboolean
attribute_unreadable (xmlAttrPtr a)
{
  xmlChar *value;
  gsize n;
  gboolean padded;

  if (a->ns != NULL)
    return TRUE;
  value = xmlNodeGetContent ((xmlNodePtr) a);
  n = value != NULL ? strlen ((const char *) value) : 0;
  padded = n > 0 && (g_ascii_isspace (value[0]) || g_ascii_isspace (value[n - 1]));
  xmlFree (value);
  return padded;
}

/* The first attribute below (and including) the element node that the readers cannot
 * read as written (attribute_unreadable), or NULL. */
static xmlAttrPtr
find_unreadable_attribute (xmlNodePtr node)
{
  for (; node != NULL; node = node->next) {
    xmlAttrPtr found;

    if (node->type != XML_ELEMENT_NODE)
      continue;
    for (xmlAttrPtr a = node->properties; a != NULL; a = a->next)
      if (attribute_unreadable (a))
        return a;
    if ((found = find_unreadable_attribute (node->children)) != NULL)
      return found;
  }
  return NULL;
}

/* FALSE with a "file:line:" error (and *bad_node) if an attribute of doc is in a
 * namespace or its value begins or ends with white space (attribute_unreadable). */
static gboolean
check_attributes_readable (xmlDocPtr doc, const char *file, xmlNodePtr *bad_node,
                           GError **error)
{
  xmlAttrPtr attr = find_unreadable_attribute (xmlDocGetRootElement (doc));
  xmlChar *value;
  g_autofree char *got = NULL;

  if (attr == NULL)
    return TRUE;
  if (attr->ns != NULL)
    goto namespaced;
  goto padded;

  /* ERRORS */
namespaced:
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%d: element %s: attribute '%s:%s' is in a "
               "namespace; netsim's files use none (write '%s')", file,
               ns_xml_line ((xmlNodePtr) attr), attr->parent->name,
               attr->ns->prefix ? (const char *) attr->ns->prefix : "", attr->name, attr->name);
  goto out;
padded:
  value = xmlNodeGetContent ((xmlNodePtr) attr);
  got = quote_value ((const char *) value);
  xmlFree (value);
  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%d: element %s: attribute '%s': value %s "
               "begins or ends with white space (write it without)", file,
               ns_xml_line ((xmlNodePtr) attr), attr->parent->name, attr->name, got);
out:
  if (bad_node != NULL)
    *bad_node = (xmlNodePtr) attr;
  return FALSE;
}

/* Validates doc against the schema at rng_path, then that no attribute is in a namespace
 * or has a value padded with white space; FALSE with a "file:line:" error and *bad_node
 * (if not NULL) set to the node at fault, or NULL if unknown. */
gboolean
ns_xml_validate_full (xmlDocPtr doc, const char *rng_path, const char *file,
                      xmlNodePtr *bad_node, GError **error)
{
  NsXmlErrors raw = { .file = file };
  NsXmlErrors stray = { .file = file };
  NsXmlGuard guard;
  xmlDocPtr schema_doc = NULL;
  xmlRelaxNGPtr schema;
  xmlRelaxNGValidCtxtPtr vctxt;
  int rc = -1;

  g_return_val_if_fail (doc != NULL, FALSE);
  g_return_val_if_fail (rng_path != NULL, FALSE);
  g_return_val_if_fail (file != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (bad_node != NULL)
    *bad_node = NULL;
  schema = load_schema (rng_path, &schema_doc, error);
  if (schema == NULL)
    return FALSE;
  guard_install (&guard, &stray, FALSE);
  vctxt = xmlRelaxNGNewValidCtxt (schema);
  if (vctxt != NULL) {
    xmlRelaxNGSetValidStructuredErrors (vctxt, on_error, &raw);
    rc = xmlRelaxNGValidateDoc (vctxt, doc);
    xmlRelaxNGFreeValidCtxt (vctxt);
  }
  xmlRelaxNGFree (schema);
  if (rc != 0)
    report_invalid (doc, schema_doc, &raw, file, bad_node, error);
  guard_remove (&guard);
  g_free (raw.message);
  g_free (stray.message);
  xmlFreeDoc (schema_doc);
  return rc == 0 && check_attributes_readable (doc, file, bad_node, error);
}

/* Validates doc against the RelaxNG schema at rng_path; FALSE with a "file:line:" error. */
gboolean
ns_xml_validate (xmlDocPtr doc, const char *rng_path, const char *file, GError **error)
{
  return ns_xml_validate_full (doc, rng_path, file, NULL, error);
}

/* Parses path and validates it against the RelaxNG schema at rng_path; see xml.h. */
xmlDocPtr
ns_xml_load (const char *path, const char *rng_path, GError **error)
{
  xmlDocPtr doc;

  g_return_val_if_fail (path != NULL && rng_path != NULL, NULL);
  doc = ns_xml_parse_file (path, error);
  if (doc != NULL && !ns_xml_validate (doc, rng_path, path, error))
    g_clear_pointer (&doc, xmlFreeDoc);
  return doc;
}

/* The attribute name (no namespace) written on element node, or NULL; never a DTD
 * default, which xmlGetProp and xmlHasProp would return. */
xmlAttrPtr
ns_xml_attr (xmlNodePtr node, const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);

  if (node == NULL || node->type != XML_ELEMENT_NODE)
    return NULL;
  for (xmlAttrPtr a = node->properties; a != NULL; a = a->next)
    if (a->ns == NULL && xmlStrEqual (a->name, BAD_CAST name))
      return a;
  return NULL;
}

/* The attribute's value as written, newly allocated; NULL if node is NULL or lacks it. */
char *
ns_xml_prop (xmlNodePtr node, const char *name)
{
  xmlAttrPtr attr = ns_xml_attr (node, name);
  xmlChar *value = attr != NULL ? xmlNodeGetContent ((xmlNodePtr) attr) : NULL;
  char *copy = attr != NULL ? g_strdup (value != NULL ? (const char *) value : "") : NULL;

  xmlFree (value);
  return copy;
}

/* TRUE if node is an element named name (NULL: any name). */
gboolean
ns_xml_is_element (xmlNodePtr node, const char *name)
{
  return node->type == XML_ELEMENT_NODE &&
         (name == NULL || !strcmp ((const char *) node->name, name));
}

/* The first child element of parent (NULL: none) named name (NULL: any name). */
xmlNodePtr
ns_xml_child (xmlNodePtr parent, const char *name)
{
  for (xmlNodePtr n = parent != NULL ? parent->children : NULL; n != NULL; n = n->next)
    if (ns_xml_is_element (n, name))
      return n;
  return NULL;
}

/* Sets an NS_ERROR_INPUT "path:line: message" error, line being given. */
static void
set_error_at (GError **error, const char *path, int line, const char *format, va_list args)
  G_GNUC_PRINTF (4, 0);

static void
set_error_at (GError **error, const char *path, int line, const char *format, va_list args)
{
  g_autofree char *message = g_strdup_vprintf (format, args);

  g_set_error (error, NS_ERROR, NS_ERROR_INPUT, "%s:%d: %s", path, line, message);
}

/* Sets an NS_ERROR_INPUT "path:line: message" error at node's line. */
void
ns_xml_set_error (GError **error, const char *path, xmlNodePtr node, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  set_error_at (error, path, ns_xml_line (node), format, args);
  va_end (args);
}

/* Sets an NS_ERROR_INPUT "path:line: message" error at attribute attr of node's line. */
void
ns_xml_set_error_attr (GError **error, const char *path, xmlNodePtr node, const char *attr,
                       const char *format, ...)
{
  va_list args;

  va_start (args, format);
  set_error_at (error, path, ns_xml_attr_line (node, attr), format, args);
  va_end (args);
}

/* The element's text, whitespace-trimmed; newly allocated ("" if none). */
char *
ns_xml_text (xmlNodePtr node)
{
  xmlChar *content = xmlNodeGetContent (node);
  char *text = g_strdup (content != NULL ? (const char *) content : "");

  xmlFree (content);
  return g_strstrip (text);
}
