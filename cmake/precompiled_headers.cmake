# Precompiled headers: the build's time goes to parsing the same large headers (Eigen, nlohmann/json, doctest,
# the standard library) once per source file. attnviz_precompile(TARGET [EIGEN] [JSON] [IMGUI] [DOCTEST]) parses
# them once per target instead. Each switch names a header set the target already uses (a layer's precompiled
# header never brings in what the layer may not use: no ImGui in core, scene, io or export).
# ATTNVIZ_PRECOMPILE=OFF turns it off, to check that every file still includes what it uses.
option(ATTNVIZ_PRECOMPILE "Precompile the large headers once per target" ON)

set(attnviz_standard_headers
  <algorithm> <array> <cmath> <cstdint> <functional> <map> <memory> <optional> <span> <stdexcept> <string>
  <string_view> <utility> <vector>)

function(attnviz_precompile target)
  if(NOT ATTNVIZ_PRECOMPILE)
    return()
  endif()
  cmake_parse_arguments(ARG "EIGEN;JSON;IMGUI;DOCTEST" "" "" ${ARGN})
  set(headers ${attnviz_standard_headers})
  if(ARG_EIGEN)
    list(APPEND headers <Eigen/Core>)
  endif()
  if(ARG_JSON)
    list(APPEND headers <nlohmann/json.hpp>)
  endif()
  if(ARG_IMGUI)
    list(APPEND headers <imgui.h>)
  endif()
  if(ARG_DOCTEST)
    list(APPEND headers <doctest/doctest.h>)
  endif()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()
