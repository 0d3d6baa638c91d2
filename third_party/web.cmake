# CMake glue for the web page (the `web` preset, Debian's emscripten): the same imported targets
# dependencies.cmake gives the desktop, made from what Debian ships. Nothing here is third-party source.
#   - header-only libraries from their installed Debian packages: Eigen (libeigen3-dev), nlohmann_json
#     (nlohmann-json3-dev), stb (libstb-dev), each through a folder of links holding only that library, so the
#     host's /usr/include (glibc's headers) never reaches the WebAssembly compiler;
#   - compiled libraries from Debian's source packages, which scripts/web unpacks with `apt-get source` into
#     ATTNVIZ_WEB_SOURCES (default ~/.cache/attnviz/web-src, outside the repository): imgui, pcre2, utf8proc, zlib,
#     libpng1.6;
#   - GLFW and WebGL 2 from Emscripten itself (-sUSE_GLFW=3 is its built-in JavaScript GLFW, not a downloaded port).
# The page has no PDF export (no Cairo), no `dump`/`export`/`fetch` commands and no threads yet (docs/web.md).

if(DEFINED ENV{XDG_CACHE_HOME})
  set(attnviz_default_web_sources "$ENV{XDG_CACHE_HOME}/attnviz/web-src")
else()
  set(attnviz_default_web_sources "$ENV{HOME}/.cache/attnviz/web-src")
endif()
set(ATTNVIZ_WEB_SOURCES "${attnviz_default_web_sources}" CACHE PATH
    "Debian's source packages for the page, unpacked by scripts/web (one folder per package: imgui, pcre2, utf8proc, zlib, libpng1.6)")
foreach(package imgui pcre2 utf8proc zlib libpng1.6)
  if(NOT EXISTS "${ATTNVIZ_WEB_SOURCES}/${package}")
    message(FATAL_ERROR "${ATTNVIZ_WEB_SOURCES}/${package} is missing: scripts/web fetches Debian's ${package} source package there.")
  endif()
endforeach()

# The matrix multiply is Eigen's: no BLAS in the page (the root CMakeLists.txt reads this list).
set(ATTNVIZ_GEMM Eigen CACHE STRING "The matrix multiply of the forward pass (the page has only Eigen's)")
set(ATTNVIZ_GEMM_LIBRARIES Eigen)

# A build without threads (it works from any static host, no SharedArrayBuffer): std::thread cannot start, so the
# code that would start one asks core::threadsAvailable() first (core/portable.h).
add_library(Threads::Threads INTERFACE IMPORTED GLOBAL)

# [SECTION] header-only Debian packages, each alone in its include folder
set(attnviz_host_headers ${CMAKE_BINARY_DIR}/host-headers)
function(attnviz_host_header_target target link_name installed_folder)
  if(NOT EXISTS "${installed_folder}")
    message(FATAL_ERROR "${installed_folder} is missing: scripts/setup installs the Debian package that holds it.")
  endif()
  file(MAKE_DIRECTORY ${attnviz_host_headers}/${target})
  file(CREATE_LINK "${installed_folder}" ${attnviz_host_headers}/${target}/${link_name} SYMBOLIC)
  add_library(attnviz_headers_${target} INTERFACE)
  target_include_directories(attnviz_headers_${target} SYSTEM INTERFACE ${attnviz_host_headers}/${target})
endfunction()
attnviz_host_header_target(eigen Eigen /usr/include/eigen3/Eigen)
file(CREATE_LINK /usr/include/eigen3/unsupported ${attnviz_host_headers}/eigen/unsupported SYMBOLIC)  # SpecialFunctions (erf)
add_library(Eigen3::Eigen ALIAS attnviz_headers_eigen)
attnviz_host_header_target(nlohmann nlohmann /usr/include/nlohmann)
add_library(nlohmann_json::nlohmann_json ALIAS attnviz_headers_nlohmann)
attnviz_host_header_target(doctest doctest /usr/include/doctest)  # test_core under node (tests/CMakeLists.txt)
add_library(doctest::doctest ALIAS attnviz_headers_doctest)
attnviz_host_header_target(cli11 CLI /usr/include/CLI)  # app/cli_options.cpp: the same inputs → ModelSpec as the desktop
add_library(CLI11::CLI11 ALIAS attnviz_headers_cli11)
# stb: included as <stb_truetype.h> by attnviz (libstb-dev's stb.pc) and as <stb/stb_truetype.h> by Debian's imgui.
attnviz_host_header_target(stb stb /usr/include/stb)
target_include_directories(attnviz_headers_stb SYSTEM INTERFACE ${attnviz_host_headers}/stb/stb)
# The implementations libstb.so holds on the desktop: the font reader and rectangle packer (ImGui's font atlas,
# io/fallback_fonts.cpp).
# (file(CONFIGURE) writes it only when it changes: a reconfigure does not relink the page.)
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/generated/stb_implementations.c CONTENT
  "#define STB_TRUETYPE_IMPLEMENTATION\n#define STB_RECT_PACK_IMPLEMENTATION\n#include <stb_rect_pack.h>\n#include <stb_truetype.h>\n")
add_library(attnviz_stb STATIC ${CMAKE_BINARY_DIR}/generated/stb_implementations.c)
target_link_libraries(attnviz_stb PUBLIC attnviz_headers_stb)
add_library(attnviz::stb ALIAS attnviz_stb)

# [SECTION] compiled from Debian's source packages
set(pcre2_source ${ATTNVIZ_WEB_SOURCES}/pcre2/src)
# PCRE2 as Debian builds libpcre2-8 (8-bit code units, Unicode properties), without the JIT (no JIT in WebAssembly).
configure_file(${pcre2_source}/config.h.generic ${CMAKE_BINARY_DIR}/generated/pcre2/config.h COPYONLY)
configure_file(${pcre2_source}/pcre2.h.generic ${CMAKE_BINARY_DIR}/generated/pcre2/pcre2.h COPYONLY)
configure_file(${pcre2_source}/pcre2_chartables.c.dist ${CMAKE_BINARY_DIR}/generated/pcre2/pcre2_chartables.c COPYONLY)
set(pcre2_files auto_possess compile config context convert dfa_match error extuni find_bracket jit_compile
    maketables match match_data newline ord2utf pattern_info script_run serialize string_utils study substitute
    substring tables ucd valid_utf xclass)
list(TRANSFORM pcre2_files PREPEND ${pcre2_source}/pcre2_)
list(TRANSFORM pcre2_files APPEND .c)
add_library(attnviz_pcre2 STATIC ${pcre2_files} ${CMAKE_BINARY_DIR}/generated/pcre2/pcre2_chartables.c)
target_include_directories(attnviz_pcre2 PUBLIC ${CMAKE_BINARY_DIR}/generated/pcre2 PRIVATE ${pcre2_source})
target_compile_definitions(attnviz_pcre2 PUBLIC PCRE2_CODE_UNIT_WIDTH=8 PCRE2_STATIC PRIVATE HAVE_CONFIG_H SUPPORT_UNICODE)
target_compile_options(attnviz_pcre2 PRIVATE -w)  # not our code: its warnings are Debian's and upstream's to read
add_library(attnviz::pcre2 ALIAS attnviz_pcre2)

# utf8proc: one C file (it includes its Unicode tables, utf8proc_data.c).
add_library(attnviz_utf8proc STATIC ${ATTNVIZ_WEB_SOURCES}/utf8proc/utf8proc.c)
target_include_directories(attnviz_utf8proc PUBLIC ${ATTNVIZ_WEB_SOURCES}/utf8proc)
target_compile_definitions(attnviz_utf8proc PUBLIC UTF8PROC_STATIC)
target_compile_options(attnviz_utf8proc PRIVATE -w)
add_library(attnviz::utf8proc ALIAS attnviz_utf8proc)

# zlib and libpng 1.6 for the PNG figure export (export/png_writer.cpp), as the desktop's libpng-dev: libpng's own
# prebuilt configuration (scripts/pnglibconf.h.prebuilt, what its CMake build copies), no architecture-specific code.
set(zlib_source ${ATTNVIZ_WEB_SOURCES}/zlib)
set(zlib_files adler32 compress crc32 deflate infback inffast inflate inftrees trees uncompr zutil)
list(TRANSFORM zlib_files PREPEND ${zlib_source}/)
list(TRANSFORM zlib_files APPEND .c)
add_library(attnviz_zlib STATIC ${zlib_files})
target_include_directories(attnviz_zlib PUBLIC ${zlib_source})
target_compile_definitions(attnviz_zlib PRIVATE HAVE_UNISTD_H)
target_compile_options(attnviz_zlib PRIVATE -w)

set(libpng_source ${ATTNVIZ_WEB_SOURCES}/libpng1.6)
configure_file(${libpng_source}/scripts/pnglibconf.h.prebuilt ${CMAKE_BINARY_DIR}/generated/libpng/pnglibconf.h COPYONLY)
set(libpng_files png pngerror pngget pngmem pngpread pngread pngrio pngrtran pngrutil pngset pngtrans pngwio pngwrite
    pngwtran pngwutil)
list(TRANSFORM libpng_files PREPEND ${libpng_source}/)
list(TRANSFORM libpng_files APPEND .c)
add_library(attnviz_libpng STATIC ${libpng_files})
target_include_directories(attnviz_libpng PUBLIC ${libpng_source} ${CMAKE_BINARY_DIR}/generated/libpng)
target_compile_definitions(attnviz_libpng PRIVATE PNG_ARM_NEON_OPT=0 PNG_INTEL_SSE_OPT=0 PNG_MIPS_MSA_OPT=0 PNG_POWERPC_VSX_OPT=0)
target_compile_options(attnviz_libpng PRIVATE -w)
target_link_libraries(attnviz_libpng PUBLIC attnviz_zlib)
add_library(PNG::PNG ALIAS attnviz_libpng)
# No Cairo: src/export leaves pdf_painter.cpp out and app/web/pdf_unavailable.cpp's paintPdf says so.
add_library(attnviz::cairo INTERFACE IMPORTED GLOBAL)

if(ATTNVIZ_BUILD_GUI)
  # Dear ImGui 1.86 as Debian's libimgui-dev builds it (its debian/patches Makefile): stb from libstb-dev, not
  # ImGui's private copies. attnviz::imgui and attnviz::imgui_backends keep the rooms apart as on the desktop.
  set(imgui_source ${ATTNVIZ_WEB_SOURCES}/imgui)
  add_library(attnviz_imgui STATIC ${imgui_source}/imgui.cpp ${imgui_source}/imgui_draw.cpp ${imgui_source}/misc/cpp/imgui_stdlib.cpp
              ${imgui_source}/imgui_tables.cpp ${imgui_source}/imgui_widgets.cpp)
  target_include_directories(attnviz_imgui SYSTEM PUBLIC ${imgui_source} ${imgui_source}/misc/cpp)
  target_compile_definitions(attnviz_imgui PRIVATE
    IMGUI_DISABLE_STB_RECT_PACK_IMPLEMENTATION "IMGUI_STB_RECT_PACK_FILENAME=<stb/stb_rect_pack.h>"
    IMGUI_DISABLE_STB_TRUETYPE_IMPLEMENTATION "IMGUI_STB_TRUETYPE_FILENAME=<stb/stb_truetype.h>")
  target_link_libraries(attnviz_imgui PUBLIC attnviz::stb)
  target_include_directories(attnviz_imgui PRIVATE ${attnviz_host_headers}/stb)
  target_compile_options(attnviz_imgui PRIVATE -w)
  add_library(attnviz::imgui ALIAS attnviz_imgui)

  # The GLFW and OpenGL 3 backends: Emscripten's GLFW 3 and WebGL 2 (the backend speaks "#version 300 es").
  add_library(attnviz_imgui_backends STATIC ${imgui_source}/backends/imgui_impl_glfw.cpp
              ${imgui_source}/backends/imgui_impl_opengl3.cpp)
  target_include_directories(attnviz_imgui_backends SYSTEM PUBLIC ${imgui_source}/backends)
  target_compile_options(attnviz_imgui_backends PRIVATE -w)
  target_link_options(attnviz_imgui_backends PUBLIC -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2)
  target_link_libraries(attnviz_imgui_backends PUBLIC attnviz_imgui)
  add_library(attnviz::imgui_backends ALIAS attnviz_imgui_backends)
  # GL function loading: WebGL's functions are linked directly (render/gl_api.h includes <GLES3/gl3.h>).
  add_library(attnviz::epoxy INTERFACE IMPORTED GLOBAL)
endif()
