# The `moreau` Python module (docs/python.md): pybind11 (Debian's pybind11-dev) for Debian's
# /usr/bin/python3 (with numpy). Optional: without pybind11 the rest builds as before. When it is
# built, the libraries are compiled as position-independent code (they link into the extension).
option(MOREAU_BUILD_PYTHON "Build the moreau Python module when pybind11 is found" ON)
set(MOREAU_PYTHON OFF)
if(MOREAU_BUILD_PYTHON)
  if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python for the moreau module")
  endif()
  find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
  if(Python3_FOUND)
    set(PYBIND11_FINDPYTHON ON)
    find_package(pybind11 CONFIG QUIET)
  endif()
  if(Python3_FOUND AND pybind11_FOUND)
    set(MOREAU_PYTHON ON)
    message(STATUS "moreau: Python module with pybind11 ${pybind11_VERSION} for "
                   "${Python3_EXECUTABLE} (build/python/moreau)")
  else()
    message(STATUS "moreau: pybind11 or Python 3 development files not found (pybind11-dev): "
                   "no Python module")
  endif()
endif()
