# man-page.cmake -- writes the manual page PAGE from its template TEMPLATE (man/cnoise.1.in),
# with the lists of noise and fractal names as the built tool CNOISE prints them in
# "cnoise sample --help" (which takes them, and which one is the default, from the library:
# cn_noise_type_name, cn_fractal_name, cn_config_init). Run by the build (CMakeLists.txt) as
#   cmake [-DEMULATOR=...] -DCNOISE=path/to/cnoise -DTEMPLATE=... -DPAGE=... -P cmake/man-page.cmake
# The template holds @CNOISE_NOISE_NAMES@ and @CNOISE_FRACTAL_NAMES@ (the fractal list up to the
# help line's ';'), @CNOISE_CELL_DISTANCE_NAMES@ and @CNOISE_CELL_RETURN_NAMES@ (up to its ':').
foreach(v CNOISE TEMPLATE PAGE)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "man-page.cmake: -D${v}=... is missing")
  endif()
endforeach()
execute_process(COMMAND ${EMULATOR} ${CNOISE} sample --help
                OUTPUT_VARIABLE help RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "man-page.cmake: '${CNOISE} sample --help' failed (${rc}): ${err}")
endif()
# cn_help_list(VAR OPTION STOP): the text after "--OPTION NAME" on its help line, up to STOP
# (a character class of what ends it), in roff (a hyphen as \-).
function(cn_help_list var option stop)
  if(NOT help MATCHES "\n *--${option} NAME +([^${stop}]+)")
    message(FATAL_ERROR "man-page.cmake: no '--${option} NAME' line in 'cnoise sample --help'")
  endif()
  string(STRIP "${CMAKE_MATCH_1}" text)
  string(REPLACE "-" "\\-" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()
cn_help_list(CNOISE_NOISE_NAMES noise "\n")
cn_help_list(CNOISE_FRACTAL_NAMES fractal ";\n")
cn_help_list(CNOISE_CELL_DISTANCE_NAMES cellular-distance "\n")
cn_help_list(CNOISE_CELL_RETURN_NAMES cellular-return ":\n")
configure_file(${TEMPLATE} ${PAGE} @ONLY)
