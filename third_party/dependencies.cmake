# CMake glue for the Debian 12 packages attnviz uses. Nothing here is third-party source: only imported
# targets for system libraries that ship no CMake config of their own (scripts/setup installs them all).
find_package(PkgConfig REQUIRED)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)          # libeigen3-dev → Eigen3::Eigen
find_package(Threads REQUIRED)
find_package(PNG REQUIRED)                           # libpng-dev → PNG::PNG
find_package(nlohmann_json 3 REQUIRED)               # nlohmann-json3-dev → nlohmann_json::nlohmann_json
find_package(CLI11 REQUIRED)                         # libcli11-dev → CLI11::CLI11
find_package(CURL 7.85 REQUIRED)                     # libcurl4-openssl-dev → CURL::libcurl (`attnviz fetch`)
find_package(OpenSSL REQUIRED)                       # libssl-dev → OpenSSL::Crypto (sha256 of fetched files)

# Tokenizers: PCRE2 (libpcre2-dev) for GPT-2's \p{L}/\p{N} pattern, utf8proc (libutf8proc-dev) for BERT's NFD
# and Unicode categories.
pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)
add_library(attnviz::pcre2 ALIAS PkgConfig::PCRE2)
pkg_check_modules(UTF8PROC REQUIRED IMPORTED_TARGET libutf8proc)
add_library(attnviz::utf8proc ALIAS PkgConfig::UTF8PROC)

# stb (libstb-dev): headers in /usr/include/stb, implementations compiled into libstb.
pkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)
add_library(attnviz::stb ALIAS PkgConfig::STB)
# PDF figures (libcairo2-dev): src/export/pdf_painter.cpp.
pkg_check_modules(CAIRO REQUIRED IMPORTED_TARGET cairo-pdf)
add_library(attnviz::cairo ALIAS PkgConfig::CAIRO)

# The matrix multiply (src/core/gemm.h): every library is optional. ATTNVIZ_GEMM_LIBRARIES lists the ones found
# (Eigen always), each with a target attnviz::gemm_<name>; the root CMakeLists.txt picks one by ATTNVIZ_GEMM.
set(ATTNVIZ_GEMM_LIBRARIES Eigen)
# libdnnl-dev: found by hand, as Debian's dnnl-config.cmake also demands OpenCL's headers.
find_library(DNNL_LIBRARY dnnl)
find_path(DNNL_INCLUDE_DIR oneapi/dnnl/dnnl.h)
if(DNNL_LIBRARY AND DNNL_INCLUDE_DIR)
  list(APPEND ATTNVIZ_GEMM_LIBRARIES oneDNN)
  add_library(attnviz_gemm_onednn INTERFACE)
  target_link_libraries(attnviz_gemm_onednn INTERFACE ${DNNL_LIBRARY} gomp)  # gomp: omp_set_num_threads
  target_include_directories(attnviz_gemm_onednn INTERFACE ${DNNL_INCLUDE_DIR})
  add_library(attnviz::gemm_oneDNN ALIAS attnviz_gemm_onednn)
endif()
pkg_check_modules(OPENBLAS QUIET IMPORTED_TARGET openblas)   # libopenblas-dev (its cblas.h, not BLIS's)
if(OPENBLAS_FOUND)
  list(APPEND ATTNVIZ_GEMM_LIBRARIES OpenBLAS)
  add_library(attnviz::gemm_OpenBLAS ALIAS PkgConfig::OPENBLAS)
endif()
find_library(BLIS_LIBRARY blis)                      # libblis-dev (no pkg-config file)
find_path(BLIS_INCLUDE_DIR blis.h)
if(BLIS_LIBRARY AND BLIS_INCLUDE_DIR)
  list(APPEND ATTNVIZ_GEMM_LIBRARIES BLIS)
  add_library(attnviz_gemm_blis INTERFACE)
  target_link_libraries(attnviz_gemm_blis INTERFACE ${BLIS_LIBRARY})
  target_include_directories(attnviz_gemm_blis INTERFACE ${BLIS_INCLUDE_DIR})
  add_library(attnviz::gemm_BLIS ALIAS attnviz_gemm_blis)
endif()

if(ATTNVIZ_BUILD_TESTS)
  find_package(doctest REQUIRED)                     # doctest-dev → doctest::doctest, doctest_discover_tests
endif()
if(ATTNVIZ_BUILD_BENCH)
  find_package(benchmark REQUIRED)                   # libbenchmark-dev → benchmark::benchmark
endif()

if(ATTNVIZ_BUILD_GUI)
  find_package(OpenGL REQUIRED)
  find_package(glfw3 3.3 REQUIRED)                   # libglfw3-dev → glfw
  pkg_check_modules(EPOXY REQUIRED IMPORTED_TARGET epoxy)   # libepoxy-dev: GL function loading for src/render
  add_library(attnviz::epoxy ALIAS PkgConfig::EPOXY)

  # Debian's libimgui-dev: a static libimgui.a (Dear ImGui 1.86 with its GLFW and OpenGL3 backends), found via
  # pkg-config `imgui`. Two targets over the one archive, so the rooms stay apart:
  #   attnviz::imgui           ImGui itself (widgets, draw lists, the font atlas, which uses libstb's stb_truetype:
  #                            imgui.pc "Requires: stb"); no backend header is on its include path and nothing
  #                            links GL or GLFW for it, so src/ui and its tests cannot call either.
  #   attnviz::imgui_backends  the GLFW and OpenGL3 backends for src/app and GL tests: their headers, GLFW, GL, dl.
  # A static archive only contributes the objects that are referenced, so the backends' objects stay out of any
  # binary that does not link attnviz::imgui_backends.
  pkg_check_modules(IMGUI REQUIRED imgui)
  find_library(IMGUI_LIBRARY NAMES libimgui.a imgui HINTS ${IMGUI_LIBRARY_DIRS} REQUIRED)
  add_library(attnviz::imgui STATIC IMPORTED GLOBAL)
  set_target_properties(attnviz::imgui PROPERTIES
    IMPORTED_LOCATION "${IMGUI_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "/usr/include/imgui"
    INTERFACE_LINK_LIBRARIES "attnviz::stb")
  add_library(attnviz::imgui_backends INTERFACE IMPORTED GLOBAL)
  set_target_properties(attnviz::imgui_backends PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "/usr/include/imgui/backends"
    INTERFACE_LINK_LIBRARIES "attnviz::imgui;glfw;OpenGL::GL;${CMAKE_DL_LIBS}")
endif()
