/* test-xml.c — safe XML parsing (no entities, DTDs, XInclude, network) and RelaxNG
 * validation with readable file:line errors. */
#include "config.h"
#include <check.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <libxml/parser.h>
#include "xml.h"

/* Path of a file under tests/data (TESTS_SRCDIR, else the source tree). */
static char *
data_path (const char *sub, const char *name)
{
  const char *tests = g_getenv ("TESTS_SRCDIR");

  if (tests != NULL)
    return g_build_filename (tests, "data", sub, name, NULL);
  return g_build_filename (NS_SRCDIR, "tests", "data", sub, name, NULL);
}

/* Parses tests/data/bad/name, which must fail with code; returns the message. */
static char *
parse_bad (const char *name, int code)
{
  g_autofree char *path = data_path ("bad", name);
  GError *error = NULL;
  xmlDocPtr doc = ns_xml_parse_file (path, &error);
  char *message;

  ck_assert_msg (doc == NULL, "%s parsed", name);
  ck_assert_ptr_nonnull (error);
  ck_assert_msg (error->domain == NS_ERROR && error->code == code, "%s: code %d: %s", name,
                 error->code, error->message);
  ck_assert_msg (g_str_has_prefix (error->message, path), "%s", error->message);
  message = g_strdup (error->message + strlen (path));
  g_error_free (error);
  return message;
}

/* Asserts that text contains needle. */
#define assert_contains(text, needle) \
  ck_assert_msg (strstr ((text), (needle)) != NULL, "'%s' not in '%s'", (needle), (text))

START_TEST (test_parse_good)
{
  g_autofree char *path = data_path ("good", "pointer-chase.xml");
  GError *error = NULL;
  xmlDocPtr doc = ns_xml_parse_file (path, &error);
  xmlNodePtr root, n;
  int cpu_line = 0, kernel_line = 0;

  ck_assert_msg (doc != NULL, "%s", error != NULL ? error->message : "");
  root = xmlDocGetRootElement (doc);
  ck_assert_str_eq ((const char *) root->name, "scenario");
  ck_assert_int_eq (ns_xml_line (root), 3);
  for (n = root->children; n != NULL; n = n->next) {
    if (n->type == XML_ELEMENT_NODE && xmlStrEqual (n->name, BAD_CAST "cpu"))
      cpu_line = ns_xml_line (n);
    if (n->type == XML_ELEMENT_NODE && xmlStrEqual (n->name, BAD_CAST "kernel"))
      kernel_line = ns_xml_line (n);
  }
  ck_assert_int_eq (cpu_line, 5);
  ck_assert_int_eq (kernel_line, 6);
  /* an attribute takes its element's line */
  ck_assert_int_eq (ns_xml_line ((xmlNodePtr) root->properties), 3);
  ck_assert_int_eq (ns_xml_line (NULL), 0);
  xmlFreeDoc (doc);
}
END_TEST

/* The element child of parent named name (the index-th, from 1). */
static xmlNodePtr
nth_child (xmlNodePtr parent, const char *name, guint index)
{
  for (xmlNodePtr n = parent->children; n != NULL; n = n->next)
    if (n->type == XML_ELEMENT_NODE && xmlStrEqual (n->name, BAD_CAST name) && --index == 0)
      return n;
  ck_abort_msg ("no %s", name);
  return NULL;
}

/* Line of attribute name of element node. */
static int
attr_line (xmlNodePtr node, const char *name)
{
  xmlAttrPtr a = ns_xml_attr (node, name);

  ck_assert_msg (a != NULL, "no attribute %s", name);
  return ns_xml_line ((xmlNodePtr) a);
}

/* Start tags over several lines (tests/data/good/multiline.xml): an element is at the
 * line of its '<' and an attribute at its name's (libxml2 alone gives both the line the
 * tag ends on), past comments holding tags, a value holding '>' and a line break, single
 * quotes; a copy (ns_xml_copy_doc) keeps them; an error about an attribute is at the
 * attribute's line, whatever its message says, and one about the element at the
 * element's. */
START_TEST (test_multiline_tag_lines)
{
  g_autofree char *path = data_path ("good", "multiline.xml");
  GError *error = NULL;
  xmlDocPtr doc = ns_xml_parse_file (path, &error), copy;
  xmlNodePtr root, measure, variants;

  ck_assert_msg (doc != NULL, "%s", error != NULL ? error->message : "");
  root = xmlDocGetRootElement (doc);
  measure = nth_child (root, "measure", 1);
  variants = nth_child (root, "variants", 1);
  ck_assert_int_eq (ns_xml_line (root), 4);
  ck_assert_int_eq (attr_line (root, "seed"), 5);
  ck_assert_int_eq (attr_line (nth_child (root, "kernel", 1), "cmdline"), 7);
  ck_assert_int_eq (ns_xml_line (nth_child (root, "workload", 1)), 9);
  ck_assert_int_eq (ns_xml_line (measure), 10);
  ck_assert_int_eq (attr_line (measure, "metric"), 10);
  ck_assert_int_eq (attr_line (measure, "repetitions"), 11);
  ck_assert_int_eq (attr_line (measure, "duration"), 12);
  ck_assert_int_eq (ns_xml_line (nth_child (variants, "variant", 1)), 14);
  ck_assert_int_eq (attr_line (nth_child (variants, "variant", 1), "name"), 15);
  ck_assert_int_eq (attr_line (nth_child (nth_child (variants, "variant", 2), "set", 1),
                               "value"), 18);
  ck_assert_int_eq (ns_xml_attr_line (measure, "duration"), 12);
  ck_assert_int_eq (ns_xml_attr_line (measure, "repetitions"), 11);
  ck_assert_int_eq (ns_xml_attr_line (measure, "converge"), 10);     /* absent: the element's */
  ns_xml_set_error_attr (&error, "m.xml", measure, "repetitions", "attribute 'duration' %s",
                         "is named, not blamed");
  ck_assert_str_eq (error->message, "m.xml:11: attribute 'duration' is named, not blamed");
  g_clear_error (&error);
  ns_xml_set_error (&error, "m.xml", measure, "attribute 'duration': %s", "the element's");
  ck_assert_str_eq (error->message, "m.xml:10: attribute 'duration': the element's");
  g_clear_error (&error);
  /* a value a set writes has no line of its own: the element's */
  xmlSetProp (measure, BAD_CAST "duration", BAD_CAST "20us");
  ck_assert_int_eq (attr_line (measure, "duration"), 10);
  copy = ns_xml_copy_doc (doc);
  measure = nth_child (xmlDocGetRootElement (copy), "measure", 1);
  ck_assert_int_eq (ns_xml_line (measure), 10);
  ck_assert_int_eq (attr_line (measure, "repetitions"), 11);
  xmlFreeDoc (copy);
  xmlFreeDoc (doc);
}
END_TEST

/* A node with no line of its own (an element a set creates) takes its nearest ancestor's;
 * the document node has none (0, not libxml2's -1). */
START_TEST (test_line_fallbacks)
{
  g_autofree char *path = data_path ("good", "multiline.xml");
  GError *error = NULL;
  xmlDocPtr doc = ns_xml_parse_file (path, &error);
  xmlNodePtr measure, made, inner;

  ck_assert_msg (doc != NULL, "%s", error != NULL ? error->message : "");
  measure = nth_child (xmlDocGetRootElement (doc), "measure", 1);
  made = xmlNewChild (measure, NULL, BAD_CAST "made", NULL);
  inner = xmlNewChild (made, NULL, BAD_CAST "inner", NULL);
  ck_assert_int_eq (xmlGetLineNo (made), 0);
  ck_assert_int_eq (ns_xml_line (made), 10);
  ck_assert_int_eq (ns_xml_line (inner), 10);
  ck_assert_int_eq (xmlGetLineNo ((xmlNodePtr) doc), -1);
  ck_assert_int_eq (ns_xml_line ((xmlNodePtr) doc), 0);
  xmlFreeDoc (doc);
}
END_TEST

/* The same with CR LF line ends and a namespace declaration among the attributes. */
START_TEST (test_multiline_tag_crlf)
{
  g_autofree char *dir = g_dir_make_tmp ("netsim-xml-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "crlf.xml", NULL);
  const char *text = "<?xml version=\"1.0\"?>\r\n<a\r\n  xmlns:x=\"urn:x\"\r\n"
                     "  x:b=\"1\" c=\"2\r\n3\"\r\n  d=\"4\">\r\n  <e/></a>\r\n";
  GError *error = NULL;
  xmlDocPtr doc;
  xmlNodePtr root;

  ck_assert (g_file_set_contents (path, text, -1, NULL));
  doc = ns_xml_parse_file (path, &error);
  ck_assert_msg (doc != NULL, "%s", error != NULL ? error->message : "");
  root = xmlDocGetRootElement (doc);
  ck_assert_int_eq (ns_xml_line (root), 2);
  ck_assert_int_eq (ns_xml_line ((xmlNodePtr) root->properties), 4);        /* x:b */
  ck_assert_int_eq (attr_line (root, "c"), 4);
  ck_assert_int_eq (attr_line (root, "d"), 6);
  ck_assert_int_eq (ns_xml_line (nth_child (root, "e", 1)), 7);
  xmlFreeDoc (doc);
  g_unlink (path);
  g_rmdir (dir);
}
END_TEST

START_TEST (test_plain_doctype_allowed)
{
  g_autofree char *path = data_path ("good", "profile-path.xml");
  GError *error = NULL;
  xmlDocPtr doc = ns_xml_parse_file (path, &error);

  ck_assert_msg (doc != NULL, "%s", error != NULL ? error->message : "");
  xmlFreeDoc (doc);
}
END_TEST

START_TEST (test_missing_file)
{
  GError *error = NULL;
  xmlDocPtr doc = ns_xml_parse_file ("/nonexistent/netsim/none.xml", &error);

  ck_assert_ptr_null (doc);
  ck_assert_int_eq (error->code, NS_ERROR_IO);
  ck_assert_str_eq (error->message,
                    "/nonexistent/netsim/none.xml: cannot read: No such file or directory");
  g_clear_error (&error);

  doc = ns_xml_parse_file ("/", &error);
  ck_assert_ptr_null (doc);
  ck_assert_int_eq (error->code, NS_ERROR_IO);
  ck_assert_str_eq (error->message, "/: cannot read: Is a directory");
  g_clear_error (&error);
}
END_TEST

START_TEST (test_billion_laughs)
{
  struct rusage before, after;
  g_autofree char *message = NULL;

  getrusage (RUSAGE_SELF, &before);
  message = parse_bad ("billion-laughs.xml", NS_ERROR_INPUT);
  getrusage (RUSAGE_SELF, &after);
  ck_assert_str_eq (message, ":3: DOCTYPE declares general entity 'lol'; entity "
                    "declarations are not allowed");
  /* nothing was expanded: the peak resident size grew by less than 64 MiB */
  ck_assert_int_lt (after.ru_maxrss - before.ru_maxrss, 64 * 1024);
}
END_TEST

START_TEST (test_quadratic_blowup)
{
  g_autofree char *message = parse_bad ("quadratic-blowup.xml", NS_ERROR_INPUT);

  ck_assert (g_str_has_prefix (message, ":2: DOCTYPE declares general entity 'a'"));
}
END_TEST

/* Writes text to a new file in a fresh scratch folder; its path (free the folder with
 * the file: g_remove both). */
static char *
write_scratch (const char *text)
{
  g_autofree char *dir = g_dir_make_tmp ("netsim-xml-XXXXXX", NULL);
  char *path = g_build_filename (dir, "doc.xml", NULL);

  ck_assert (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* A start tag of n attributes x0="1" … (one '=' and a quoted '>' inside each value, which
 * the count must not take for the tag's end or for more attributes) on line 3. */
static char *
crowded_doc (guint n)
{
  GString *text = g_string_new ("<?xml version=\"1.0\"?>\n<!-- a=1 b=2 c=3 -->\n<root");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, " x%u='a=>b'", i);
  g_string_append (text, "/>\n");
  return g_string_free (text, FALSE);
}

/* More than 256 attributes on one start tag are refused before libxml2 builds them
 * (its duplicate check costs their square: 10 000 took 5 s and 800 MB), at the tag's
 * line; 256 parse. */
START_TEST (test_crowded_tag_refused)
{
  g_autofree char *ok_text = crowded_doc (256), *bad_text = crowded_doc (257);
  g_autofree char *ok_path = write_scratch (ok_text), *bad_path = write_scratch (bad_text);
  g_autofree char *ok_dir = g_path_get_dirname (ok_path);
  g_autofree char *bad_dir = g_path_get_dirname (bad_path);
  GError *error = NULL;
  xmlDocPtr doc = ns_xml_parse_file (ok_path, &error);

  ck_assert_msg (doc != NULL, "%s", error ? error->message : "");
  xmlFreeDoc (doc);
  ck_assert_ptr_null (ns_xml_parse_file (bad_path, &error));
  ck_assert_ptr_nonnull (error);
  ck_assert (g_str_has_prefix (error->message, bad_path));
  ck_assert_str_eq (error->message + strlen (bad_path), ":3: a start tag with more than 256 "
                    "attributes (no element netsim reads has so many)");
  g_error_free (error);
  g_remove (ok_path);
  g_remove (bad_path);
  g_rmdir (ok_dir);
  g_rmdir (bad_dir);
}
END_TEST

START_TEST (test_external_entity)
{
  g_autofree char *message = parse_bad ("external-entity.xml", NS_ERROR_INPUT);

  ck_assert_str_eq (message, ":3: DOCTYPE declares external general entity 'passwd'; entity "
                    "declarations are not allowed");
  ck_assert_ptr_null (strstr (message, "root:"));
}
END_TEST

START_TEST (test_external_dtd)
{
  g_autofree char *local = parse_bad ("external-dtd.xml", NS_ERROR_INPUT);
  g_autofree char *remote = parse_bad ("doctype-http.xml", NS_ERROR_INPUT);

  ck_assert_str_eq (local, ":2: DOCTYPE refers to an external DTD "
                    "('../../../scenarios/scenario.dtd'); external DTDs are not allowed");
  ck_assert (g_str_has_prefix (remote, ":3: DOCTYPE refers to an external DTD "
                               "('http://attacker.example/scenario.dtd')"));
}
END_TEST

START_TEST (test_parameter_entity)
{
  g_autofree char *message = parse_bad ("parameter-entity.xml", NS_ERROR_INPUT);

  ck_assert (g_str_has_prefix (message, ":3: DOCTYPE declares external parameter entity "
                               "'remote'"));
}
END_TEST

/* A declaration in the internal DTD subset (attribute list, element, notation) is refused
 * at its line: an <!ATTLIST> default would reach the reader as if written, unvalidated. An
 * empty subset stays allowed. */
START_TEST (test_internal_subset_declarations)
{
  g_autofree char *attlist = parse_bad ("dtd-attribute-default.xml", NS_ERROR_INPUT);
  g_autofree char *element = parse_bad ("dtd-element-decl.xml", NS_ERROR_INPUT);
  g_autofree char *notation = parse_bad ("dtd-notation-decl.xml", NS_ERROR_INPUT);
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "netsim-test-xml-XXXXXX.xml",
                                            NULL);
  GError *error = NULL;
  xmlDocPtr doc;
  int fd;

  ck_assert_str_eq (attlist, ":4: DOCTYPE declares an attribute list ('confidence' of "
                    "element 'measure'); the internal DTD subset must be empty (write "
                    "<!DOCTYPE name> or none)");
  ck_assert (g_str_has_prefix (element, ":2: DOCTYPE declares element 'scenario'; "));
  ck_assert (g_str_has_prefix (notation, ":3: DOCTYPE declares notation 'gif'; "));

  fd = g_mkstemp (path);
  ck_assert_int_ge (fd, 0);
  close (fd);
  ck_assert (g_file_set_contents (path, "<?xml version=\"1.0\"?>\n<!DOCTYPE r []>\n<r/>\n",
                                  -1, NULL));
  doc = ns_xml_parse_file (path, &error);
  ck_assert_msg (doc != NULL, "%s", error != NULL ? error->message : "");
  xmlFreeDoc (doc);
  g_unlink (path);
}
END_TEST

/* ns_xml_prop and ns_xml_attr read what the element writes, never a default an <!ATTLIST>
 * declares (XML 1.0 §3.3.2 lets a processor report such defaults; xmlGetProp does). */
START_TEST (test_prop_ignores_dtd_defaults)
{
  static const char text[] = "<!DOCTYPE r [<!ATTLIST r a CDATA \"5\" b CDATA \"6\">]>"
                             "<r b=\"7\"/>";
  xmlDocPtr doc = xmlReadMemory (text, sizeof text - 1, "mem.xml", NULL, XML_PARSE_NONET);
  xmlNodePtr root = xmlDocGetRootElement (doc);
  g_autofree char *a = ns_xml_prop (root, "a");
  g_autofree char *b = ns_xml_prop (root, "b");

  ck_assert_ptr_nonnull (xmlHasProp (root, BAD_CAST "a"));   /* libxml2 would give it */
  ck_assert_ptr_null (a);
  ck_assert_ptr_null (ns_xml_attr (root, "a"));
  ck_assert_str_eq (b, "7");
  ck_assert_ptr_nonnull (ns_xml_attr (root, "b"));
  xmlFreeDoc (doc);
}
END_TEST

START_TEST (test_xinclude_not_processed)
{
  g_autofree char *message = parse_bad ("xinclude.xml", NS_ERROR_INPUT);

  ck_assert_str_eq (message, ":4: XInclude element 'include' is not allowed (netsim does "
                    "not process XInclude)");
}
END_TEST

START_TEST (test_undeclared_entity)
{
  g_autofree char *message = parse_bad ("undeclared-entity.xml", NS_ERROR_INPUT);

  ck_assert_str_eq (message, ":3: Entity 'secret' not defined");
}
END_TEST

START_TEST (test_not_well_formed)
{
  static const struct { const char *file, *expected; } cases[] = {
    { "unclosed-tag.xml", ":7: Opening and ending tag mismatch: kernel line 4 and scenario" },
    { "bad-quoting.xml", ":3: AttValue: \" or ' expected" },
    { "garbage-after-root.xml", ":8: Extra content at the end of the document" },
    { "empty.xml", ":1: file is empty" },
    { "binary-junk.xml", ":1: Start tag expected, '<' not found" },
    { "wrong-encoding.xml", ":2: file is not valid UTF-8 (Bytes: 0xE9" },
    { "unsupported-encoding.xml", ":1: Unsupported encoding NETSIM-7" },
    { "deep-nesting.xml", ":6: elements nested too deeply (limit 256 levels)" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_autofree char *message = parse_bad (cases[i].file, NS_ERROR_INPUT);

    ck_assert_msg (g_str_has_prefix (message, cases[i].expected), "%s: '%s'", cases[i].file,
                   message);
  }
}
END_TEST

/* Bytes that are not UTF-8: libxml2's list of them (its wording varies by release: only
 * its start is asserted above) closed in its parentheses, then the advice. */
START_TEST (test_not_utf8_advice)
{
  g_autofree char *message = parse_bad ("wrong-encoding.xml", NS_ERROR_INPUT);

  ck_assert_msg (g_str_has_suffix (message, ") (save it as UTF-8 or declare its real "
                                   "encoding)"), "'%s'", message);
}
END_TEST

/* Parses text from a scratch file (write_scratch): the error message past its path, or
 * NULL if it parsed. */
static char *
parse_text (const char *text)
{
  g_autofree char *path = write_scratch (text);
  g_autofree char *dir = g_path_get_dirname (path);
  GError *error = NULL;
  xmlDocPtr doc = ns_xml_parse_file (path, &error);
  char *message = NULL;

  if (doc == NULL) {
    ck_assert_ptr_nonnull (error);
    ck_assert_int_eq (error->code, NS_ERROR_INPUT);
    ck_assert (g_str_has_prefix (error->message, path));
    message = g_strdup (error->message + strlen (path));
    g_error_free (error);
  }
  xmlFreeDoc (doc);
  g_unlink (path);
  g_rmdir (dir);
  return message;
}

/* A namespace error (libxml2 raises it at level "error", not "fatal": the document is
 * still well-formed XML) refuses the file at its line, as a prefixed attribute the
 * readers would never see must; a namespace warning (a relative URI) does not. */
START_TEST (test_namespace_errors)
{
  g_autofree char *undeclared = parse_text ("<?xml version=\"1.0\"?>\n<scenario name=\"x\"\n"
                                            "  y:seed=\"1\">\n</scenario>\n");
  g_autofree char *relative = parse_text ("<?xml version=\"1.0\"?>\n<r xmlns:a=\"rel\">\n"
                                          "<a:b/></r>\n");

  ck_assert_str_eq (undeclared, ":3: Namespace prefix y for seed on scenario is not defined");
  ck_assert_ptr_null (relative);
}
END_TEST

/* A file of 16 MiB parses; one byte more is refused, naming the limit, before any of it
 * is parsed (so no line). */
START_TEST (test_file_size_limit)
{
  const gsize limit = 16u * 1024 * 1024;
  static const char head[] = "<?xml version=\"1.0\"?>\n<r>\n", tail[] = "</r>\n";
  GString *text = g_string_new (head);
  g_autofree char *fits = NULL, *over = NULL;

  while (text->len + 64 + sizeof tail - 1 <= limit)
    g_string_append (text, "<!-- 64 bytes of padding, a comment the parser skips over . -->\n");
  while (text->len + sizeof tail - 1 < limit)
    g_string_append_c (text, ' ');
  g_string_append (text, tail);
  ck_assert_uint_eq (text->len, limit);
  fits = parse_text (text->str);
  ck_assert_msg (fits == NULL, "%s", fits);
  g_string_append_c (text, '\n');
  over = parse_text (text->str);
  ck_assert_str_eq (over, ": file too large (limit 16 MiB)");
  g_string_free (text, TRUE);
}
END_TEST

/* libxml2 must never print: hostile and invalid files are read with stderr redirected to a file
 * that must stay empty; the global entity loader must be restored afterwards. */
START_TEST (test_silent_and_restored)
{
  static const char *const files[] = {
    "billion-laughs.xml", "external-entity.xml", "external-dtd.xml", "doctype-http.xml",
    "parameter-entity.xml", "unclosed-tag.xml", "binary-junk.xml", "wrong-encoding.xml",
    "deep-nesting.xml", "undeclared-entity.xml",
  };
  static const char *const invalid[] = {
    "bad-number.xml", "missing-metric.xml", "wrong-root.xml", "bad-kernel-version.xml",
  };
  g_autofree char *schema = ns_xml_schema_path ("scenario.rng");
  xmlExternalEntityLoader loader = xmlGetExternalEntityLoader ();
  g_autofree char *capture = NULL;
  g_autofree char *printed = NULL;
  int fd = g_file_open_tmp ("netsim-test-xml-XXXXXX", &capture, NULL);
  int saved = dup (STDERR_FILENO);

  ck_assert_int_ge (fd, 0);
  dup2 (fd, STDERR_FILENO);
  for (gsize i = 0; i < G_N_ELEMENTS (files); i++)
    g_free (parse_bad (files[i], NS_ERROR_INPUT));
  for (gsize i = 0; i < G_N_ELEMENTS (invalid); i++) {
    g_autofree char *path = data_path ("bad", invalid[i]);
    xmlDocPtr doc = ns_xml_parse_file (path, NULL);
    GError *error = NULL;

    ck_assert_ptr_nonnull (doc);
    ck_assert (!ns_xml_validate (doc, schema, path, &error));
    g_clear_error (&error);
    xmlFreeDoc (doc);
  }
  fflush (stderr);
  dup2 (saved, STDERR_FILENO);
  close (saved);
  close (fd);
  ck_assert (g_file_get_contents (capture, &printed, NULL, NULL));
  ck_assert_str_eq (printed, "");
  g_unlink (capture);
  ck_assert (xmlGetExternalEntityLoader () == loader);
}
END_TEST

START_TEST (test_schema_path)
{
  g_autofree char *saved = g_strdup (g_getenv ("NETSIM_DATADIR"));
  char *path;

  g_setenv ("NETSIM_DATADIR", "/opt/netsim-data", TRUE);
  path = ns_xml_schema_path ("cpu.rng");
  ck_assert_str_eq (path, "/opt/netsim-data/scenarios/cpu.rng");
  g_free (path);
  g_unsetenv ("NETSIM_DATADIR");
  path = ns_xml_schema_path ("scenario.rng");
  ck_assert (g_str_has_suffix (path, "/scenarios/scenario.rng"));
  ck_assert (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_free (path);
  if (saved != NULL)
    g_setenv ("NETSIM_DATADIR", saved, TRUE);
}
END_TEST

/* Validates tests/data/SUB/NAME against the scenario schema; returns the error message
 * without the file name, or NULL if valid. */
static char *
validate_file (const char *sub, const char *name)
{
  g_autofree char *path = data_path (sub, name);
  g_autofree char *schema = ns_xml_schema_path ("scenario.rng");
  GError *error = NULL;
  xmlDocPtr doc = ns_xml_parse_file (path, &error);
  char *message = NULL;

  ck_assert_msg (doc != NULL, "%s", error != NULL ? error->message : "");
  if (!ns_xml_validate (doc, schema, path, &error)) {
    ck_assert_int_eq (error->code, NS_ERROR_INPUT);
    ck_assert (g_str_has_prefix (error->message, path));
    message = g_strdup (error->message + strlen (path));
    g_error_free (error);
  }
  xmlFreeDoc (doc);
  return message;
}

START_TEST (test_validate)
{
  g_autofree char *good = validate_file ("good", "pointer-chase.xml");
  g_autofree char *number = validate_file ("bad", "bad-number.xml");
  g_autofree char *root = validate_file ("bad", "wrong-root.xml");
  g_autofree char *missing = validate_file ("bad", "missing-metric.xml");
  g_autofree char *unknown = validate_file ("bad", "unknown-element.xml");

  ck_assert_ptr_null (good);
  ck_assert_str_eq (number, ":7: element measure: attribute 'repetitions': expected a "
                    "positive integer (at most 10000), got 'x'");
  ck_assert_str_eq (root, ":2: expected root element 'scenario', got 'profile'");
  ck_assert_str_eq (missing, ":6: element measure: missing required attribute 'metric' "
                    "(expected a metric name)");
  ck_assert_str_eq (unknown, ":7: element scenario: unexpected element 'report' (allowed: "
                    "description, cpu, kernel, param, workload, measure, variants, comparisons)");
}
END_TEST

/* A schema without annotations, using interleave, element data, a define, a choice
 * between attribute groups (l2: size and ways, or like), a choice between elements (fan)
 * and a pattern facet (tag). */
static const char generic_schema[] =
  "<grammar xmlns='http://relaxng.org/ns/structure/1.0'\n"
  "         datatypeLibrary='http://www.w3.org/2001/XMLSchema-datatypes'>\n"
  "  <start><element name='cpu'>\n"
  "    <attribute name='name'><data type='token'/></attribute>\n"
  "    <interleave>\n"
  "      <element name='clock'><data type='decimal'>\n"
  "        <param name='minExclusive'>0</param></data></element>\n"
  "      <optional><element name='l1'>\n"
  "        <attribute name='size'><ref name='size'/></attribute>\n"
  "        <attribute name='policy'><choice><value>lru</value><value>plru</value>"
  "</choice></attribute>\n"
  "      </element></optional>\n"
  "      <optional><element name='l2'><choice>\n"
  "        <group><attribute name='size'><ref name='size'/></attribute>\n"
  "          <attribute name='ways'><ref name='size'/></attribute></group>\n"
  "        <attribute name='like'><data type='token'/></attribute>\n"
  "      </choice></element></optional>\n"
  "      <optional><element name='fan'><choice>\n"
  "        <element name='auto'><empty/></element><element name='fixed'><empty/></element>\n"
  "      </choice></element></optional>\n"
  "      <optional><element name='tag'><data type='token'>\n"
  "        <param name='pattern'>[a-z]+</param></data></element></optional>\n"
  "    </interleave>\n"
  "  </element></start>\n"
  "  <define name='size'><data type='positiveInteger'/></define>\n"
  "</grammar>\n";

/* Validates text against generic_schema; returns the message after "doc.xml" or NULL. */
static char *
validate_generic (const char *text, gboolean *has_bad_node)
{
  g_autofree char *dir = g_dir_make_tmp ("netsim-test-xml-XXXXXX", NULL);
  g_autofree char *schema = g_build_filename (dir, "cpu.rng", NULL);
  g_autofree char *path = g_build_filename (dir, "doc.xml", NULL);
  GError *error = NULL;
  xmlNodePtr bad = NULL;
  xmlDocPtr doc;
  char *message = NULL;

  ck_assert (g_file_set_contents (schema, generic_schema, -1, NULL));
  ck_assert (g_file_set_contents (path, text, -1, NULL));
  doc = ns_xml_parse_file (path, &error);
  ck_assert_msg (doc != NULL, "%s", error != NULL ? error->message : "");
  if (!ns_xml_validate_full (doc, schema, "doc.xml", &bad, &error)) {
    ck_assert_int_eq (error->code, NS_ERROR_INPUT);
    message = g_strdup (error->message + strlen ("doc.xml"));
    g_error_free (error);
  }
  *has_bad_node = bad != NULL;
  xmlFreeDoc (doc);
  g_unlink (schema);
  g_unlink (path);
  g_rmdir (dir);
  return message;
}

/* Ten characters, to write long values. */
#define TEN "abcdefghij"

START_TEST (test_validate_generic_schema)
{
  static const struct { const char *doc, *expected; } cases[] = {
    { "<cpu name='x'>\n<l1 size='32' policy='lru'/>\n<clock>3.5</clock></cpu>", NULL },
    { "<cpu name='x'>\n<clock>fast</clock></cpu>",
      ":2: element clock: expected a decimal number > 0, got 'fast'" },
    { "<cpu name='x'>\n<l1 size='0' policy='lru'/><clock>1</clock></cpu>",
      ":2: element l1: attribute 'size': expected a positive integer, got '0'" },
    { "<cpu name='x'>\n<l1 size='1' policy='fifo'/><clock>1</clock></cpu>",
      ":2: element l1: attribute 'policy': expected one of: lru, plru, got 'fifo'" },
    /* a value is quoted whole up to 60 characters, longer ones cut to 57 and "..." */
    { "<cpu name='x'>\n<l1 size='1' policy='" TEN TEN TEN TEN TEN TEN "'/><clock>1</clock>"
      "</cpu>", ":2: element l1: attribute 'policy': expected one of: lru, plru, got '"
      TEN TEN TEN TEN TEN TEN "'" },
    { "<cpu name='x'>\n<l1 size='1' policy='" TEN TEN TEN TEN TEN TEN "k'/><clock>1</clock>"
      "</cpu>", ":2: element l1: attribute 'policy': expected one of: lru, plru, got '"
      TEN TEN TEN TEN TEN "abcdefg...'" },
    { "<cpu name='x'>\n<l1 size='1' policy='lru'/></cpu>",
      ":1: element cpu: missing required element 'clock'" },
    { "<cpu name='x'>\n<clock>1</clock>\n<clock>2</clock></cpu>",
      ":3: element cpu: element 'clock' may appear only once" },
    { "<cpu>\n<clock>1</clock></cpu>",
      ":1: element cpu: missing required attribute 'name' (expected a name)" },
    { "<cpu name='x' speed='1'>\n<clock>1</clock></cpu>",
      ":1: element cpu: unknown attribute 'speed' (allowed: name)" },
    /* a name with a pattern is described by the pattern */
    { "<cpu name='x'>\n<tag>A1</tag><clock>1</clock></cpu>",
      ":2: element tag: expected a value matching '[a-z]+', got 'A1'" },
    { "<cpu name='x'>\n<tag>ab</tag><clock>1</clock></cpu>", NULL },
    /* a choice of elements, which the explainer does not model (netsim's schemas have
     * none): libxml2's own message, at the element it blames */
    { "<cpu name='x'>\n<fan><auto/></fan><clock>1</clock></cpu>", NULL },
    { "<cpu name='x'>\n<fan>\n<auto/>\n<fixed/></fan><clock>1</clock></cpu>",
      ":1: Extra element fan in interleave" },
    { "<cpu name='x'>\n<l2 size='1' ways='8'/><clock>1</clock></cpu>", NULL },
    { "<cpu name='x'>\n<l2 like='l1'/><clock>1</clock></cpu>", NULL },
    { "<cpu name='x'>\n<l2/><clock>1</clock></cpu>",
      ":2: element l2: missing required attribute 'size' or 'like'" },
    { "<cpu name='x'>\n<l2 size='1' ways='2' like='l1'/><clock>1</clock></cpu>",
      ":2: element l2: attribute 'like' cannot be given with 'size'" },
    { "<cpu name='x'>\n<l2 ways='2'/><clock>1</clock></cpu>",
      ":2: element l2: missing required attribute 'size' (expected a positive integer)" },
    { "<cpu name='x'>\n<l2 size='0' ways='2'/><clock>1</clock></cpu>",
      ":2: element l2: attribute 'size': expected a positive integer, got '0'" },
    { "<cpu name='x'>\n<l2 like='a' speed='1'/><clock>1</clock></cpu>",
      ":2: element l2: unknown attribute 'speed' (allowed: size, ways, like)" },
    /* RelaxNG compares a token or number trimmed; netsim's readers take the value as
     * written, so a padded value the schema passes is refused after it */
    { "<cpu name='x'>\n<l1 size='1' policy=' lru'/><clock>1</clock></cpu>",
      ":2: element l1: attribute 'policy': value ' lru' begins or ends with white space "
      "(write it without)" },
    { "<cpu name='x'>\n<l2 size='1' ways='8&#9;'/><clock>1</clock></cpu>",
      ":2: element l2: attribute 'ways': value '8\\t' begins or ends with white space "
      "(write it without)" },
    { "<cpu name='x '>\n<clock>1</clock></cpu>",
      ":1: element cpu: attribute 'name': value 'x ' begins or ends with white space "
      "(write it without)" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++) {
    gboolean bad = FALSE;
    g_autofree char *message = validate_generic (cases[i].doc, &bad);

    if (cases[i].expected == NULL) {
      ck_assert_msg (message == NULL, "case %zu: %s", i, message);
      continue;
    }
    ck_assert_msg (message != NULL, "case %zu valid", i);
    ck_assert_msg (g_str_equal (message, cases[i].expected), "case %zu: '%s'", i, message);
    ck_assert_msg (bad, "case %zu: no node", i);
  }
}
END_TEST

/* TRUE if node is the RelaxNG element name. */
static gboolean
is_rng_element (xmlNodePtr node, const char *name)
{
  return node->type == XML_ELEMENT_NODE && node->ns != NULL &&
         xmlStrEqual (node->ns->href, BAD_CAST "http://relaxng.org/ns/structure/1.0") &&
         xmlStrEqual (node->name, BAD_CAST name);
}

/* TRUE if every RelaxNG child of choice is one of the names (a group: of those names). */
static gboolean
choice_of (xmlNodePtr choice, const char *const *names)
{
  for (xmlNodePtr n = choice->children; n != NULL; n = n->next) {
    gboolean ok = n->type != XML_ELEMENT_NODE;

    for (const char *const *name = names; *name != NULL && !ok; name++)
      ok = is_rng_element (n, *name);
    if (!ok && is_rng_element (n, "group") && n->children != NULL)
      ok = choice_of (n, names);
    if (!ok)
      return FALSE;
  }
  return TRUE;
}

/* The first <choice> below node that is neither of values nor of attributes, or NULL. */
static xmlNodePtr
find_element_choice (xmlNodePtr node)
{
  static const char *const values[] = { "value", "data", NULL };
  static const char *const attributes[] = { "attribute", NULL };

  for (; node != NULL; node = node->next) {
    xmlNodePtr found;

    if (is_rng_element (node, "choice") && !choice_of (node, values) &&
        !choice_of (node, attributes))
      return node;
    if (node->type == XML_ELEMENT_NODE && (found = find_element_choice (node->children)))
      return found;
  }
  return NULL;
}

/* The shipped schemas keep to what the explainer accounts for: a choice of values or of
 * attributes (groups of them), never of elements, whose errors would fall back to
 * libxml2's vaguer messages (the generic test above). */
START_TEST (test_shipped_schemas_explainable)
{
  static const char *const schemas[] = { "scenario.rng", "cpu.rng", "kconfig.rng" };

  for (gsize i = 0; i < G_N_ELEMENTS (schemas); i++) {
    g_autofree char *path = ns_xml_schema_path (schemas[i]);
    GError *error = NULL;
    xmlDocPtr doc = ns_xml_parse_file (path, &error);
    xmlNodePtr bad;

    ck_assert_msg (doc != NULL, "%s", error != NULL ? error->message : "");
    bad = find_element_choice (xmlDocGetRootElement (doc));
    ck_assert_msg (bad == NULL, "%s:%d: a choice the explainer does not account for",
                   schemas[i], bad != NULL ? ns_xml_line (bad) : 0);
    xmlFreeDoc (doc);
  }
}
END_TEST

START_TEST (test_missing_schema)
{
  g_autofree char *path = data_path ("good", "minimal.xml");
  GError *error = NULL;
  xmlDocPtr doc = ns_xml_parse_file (path, &error);

  ck_assert_ptr_nonnull (doc);
  ck_assert (!ns_xml_validate (doc, "/nonexistent/schema.rng", path, &error));
  ck_assert_int_eq (error->code, NS_ERROR_IO);
  g_clear_error (&error);
  xmlFreeDoc (doc);
}
END_TEST

static Suite *
xml_suite (void)
{
  Suite *s = suite_create ("xml");
  TCase *parse = tcase_create ("parse");
  TCase *hostile = tcase_create ("hostile");
  TCase *validate = tcase_create ("validate");

  tcase_add_test (parse, test_parse_good);
  tcase_add_test (parse, test_multiline_tag_lines);
  tcase_add_test (parse, test_multiline_tag_crlf);
  tcase_add_test (parse, test_line_fallbacks);
  tcase_add_test (parse, test_plain_doctype_allowed);
  tcase_add_test (parse, test_missing_file);
  tcase_add_test (parse, test_not_well_formed);
  tcase_add_test (parse, test_not_utf8_advice);
  tcase_add_test (parse, test_namespace_errors);
  tcase_add_test (parse, test_file_size_limit);
  tcase_add_test (parse, test_schema_path);
  tcase_add_test (hostile, test_billion_laughs);
  tcase_add_test (hostile, test_quadratic_blowup);
  tcase_add_test (hostile, test_crowded_tag_refused);
  tcase_add_test (hostile, test_external_entity);
  tcase_add_test (hostile, test_external_dtd);
  tcase_add_test (hostile, test_parameter_entity);
  tcase_add_test (hostile, test_internal_subset_declarations);
  tcase_add_test (hostile, test_prop_ignores_dtd_defaults);
  tcase_add_test (hostile, test_xinclude_not_processed);
  tcase_add_test (hostile, test_undeclared_entity);
  tcase_add_test (hostile, test_silent_and_restored);
  tcase_add_test (validate, test_validate);
  tcase_add_test (validate, test_validate_generic_schema);
  tcase_add_test (validate, test_missing_schema);
  tcase_add_test (validate, test_shipped_schemas_explainable);
  suite_add_tcase (s, parse);
  suite_add_tcase (s, hostile);
  suite_add_tcase (s, validate);
  return s;
}

int
main (void)
{
  SRunner *runner = srunner_create (xml_suite ());
  int failed;

  srunner_run_all (runner, CK_NORMAL);
  failed = srunner_ntests_failed (runner);
  srunner_free (runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
