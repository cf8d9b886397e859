# The C++ API reference: every public header of include/platformpp/. tools/api-reference runs it (and the C
# ABI's, Doxyfile.c); an undocumented public symbol is a warning, and a warning fails the api_reference test.
PROJECT_NAME           = "platformpp C++ API"
INPUT                  = namespaces.dox ../../include/platformpp
FILE_PATTERNS          = *.hpp *.dox
RECURSIVE              = YES
EXCLUDE_SYMBOLS        = *::detail::* detail
EXTRACT_ALL            = NO
EXTRACT_PRIVATE        = NO
EXTRACT_STATIC         = YES
HIDE_UNDOC_MEMBERS     = NO
JAVADOC_AUTOBRIEF      = YES
QUIET                  = YES
WARNINGS               = YES
WARN_IF_UNDOCUMENTED   = YES
WARN_IF_DOC_ERROR      = YES
WARN_NO_PARAMDOC       = NO
WARN_AS_ERROR          = FAIL_ON_WARNINGS
GENERATE_HTML          = YES
GENERATE_LATEX         = NO
HAVE_DOT               = NO
OUTPUT_DIRECTORY       = $(PLATFORMPP_REFERENCE_OUT)/cpp
STRIP_FROM_PATH        = ../../include
