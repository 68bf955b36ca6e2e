# The trajectory viewer (docs/viewer.md) inlines three.js (Debian's libjs-three) and its own
# HTML/JavaScript into every HTML file it writes: they are compiled into moreau_viewer here, so a
# viewer file needs no network access and no file next to it.
find_file(MOREAU_THREE_JS three.min.js
  PATHS /usr/share/javascript/three /usr/share/javascript/three/build
  DOC "three.js (libjs-three) inlined into the viewer's HTML files")
if(NOT MOREAU_THREE_JS)
  message(STATUS "three.js not found (install libjs-three): `moreau view` will say so")
  set(MOREAU_THREE_JS "")
endif()
set(viewer_asset_dir ${PROJECT_SOURCE_DIR}/src/moreau/viewer/assets)
set(viewer_gen_dir ${PROJECT_BINARY_DIR}/generated/viewer)
file(MAKE_DIRECTORY ${viewer_gen_dir})
set(viewer_generated "")
foreach(asset "three_js|${MOREAU_THREE_JS}" "viewer_js|${viewer_asset_dir}/viewer.js"
              "viewer_html|${viewer_asset_dir}/viewer.html")
  string(REPLACE "|" ";" pair "${asset}")
  list(GET pair 0 name)
  list(LENGTH pair n)
  set(input "")
  if(n GREATER 1)
    list(GET pair 1 input)
  endif()
  set(out ${viewer_gen_dir}/asset_${name}.cpp)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${out} -DNAME=moreau_asset_${name}
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_file.cmake
    DEPENDS ${input} ${PROJECT_SOURCE_DIR}/cmake/embed_file.cmake
    COMMENT "Embedding ${name} into the viewer" VERBATIM)
  list(APPEND viewer_generated ${out})
endforeach()
target_sources(moreau_viewer PRIVATE ${viewer_generated})
