# The C ABI reference: c_api/include/platformpp/. Every function documents each parameter, what it returns,
# and who owns what (WARN_NO_PARAMDOC); tools/api-reference runs it with Doxyfile.cpp.
PROJECT_NAME           = "platformpp C ABI"
INPUT                  = ../../c_api/include/platformpp
FILE_PATTERNS          = *.h
RECURSIVE              = NO
OPTIMIZE_OUTPUT_FOR_C  = YES
EXTRACT_ALL            = NO
JAVADOC_AUTOBRIEF      = YES
MACRO_EXPANSION        = NO
QUIET                  = YES
WARNINGS               = YES
WARN_IF_UNDOCUMENTED   = YES
WARN_IF_DOC_ERROR      = YES
WARN_NO_PARAMDOC       = YES
WARN_AS_ERROR          = FAIL_ON_WARNINGS
GENERATE_HTML          = YES
GENERATE_LATEX         = NO
HAVE_DOT               = NO
OUTPUT_DIRECTORY       = $(PLATFORMPP_REFERENCE_OUT)/c
STRIP_FROM_PATH        = ../../c_api/include
