# Optional system libraries (Debian packages). Each one found adds a compile definition
# MOREAU_HAVE_<NAME>; code that needs it is compiled conditionally.
set(MOREAU_COLLISION_LIBS "")
set(MOREAU_IO_LIBS "")

# Collision: libccd (GJK/EPA/MPR, double precision) with FCL's libccd extension (signed distance),
# assimp (OBJ/STL mesh files) and qhull (convex hulls, reentrant C API libqhull_r).
find_path(MOREAU_CCD_INCLUDE ccd/ccd.h)
find_library(MOREAU_CCD_LIB ccd)
find_path(MOREAU_FCL_INCLUDE fcl/narrowphase/detail/convexity_based_algorithm/gjk_libccd-inl.h)
find_library(MOREAU_FCL_LIB fcl)
find_path(MOREAU_ASSIMP_INCLUDE assimp/cimport.h)
find_library(MOREAU_ASSIMP_LIB assimp)
find_path(MOREAU_QHULL_INCLUDE libqhull_r/libqhull_r.h)
find_library(MOREAU_QHULL_LIB qhull_r)
if(MOREAU_CCD_INCLUDE AND MOREAU_CCD_LIB AND MOREAU_FCL_INCLUDE AND MOREAU_FCL_LIB)
  add_library(moreau_dep_ccd INTERFACE)
  target_include_directories(moreau_dep_ccd SYSTEM INTERFACE ${MOREAU_CCD_INCLUDE} ${MOREAU_FCL_INCLUDE})
  target_link_libraries(moreau_dep_ccd INTERFACE ${MOREAU_FCL_LIB} ${MOREAU_CCD_LIB})
  target_compile_definitions(moreau_dep_ccd INTERFACE MOREAU_HAVE_CCD=1)
  list(APPEND MOREAU_COLLISION_LIBS moreau_dep_ccd)
else()
  message(FATAL_ERROR "moreau needs libccd-dev and libfcl-dev (GJK/EPA for convex pairs)")
endif()
if(MOREAU_ASSIMP_INCLUDE AND MOREAU_ASSIMP_LIB)
  add_library(moreau_dep_assimp INTERFACE)
  target_include_directories(moreau_dep_assimp SYSTEM INTERFACE ${MOREAU_ASSIMP_INCLUDE})
  target_link_libraries(moreau_dep_assimp INTERFACE ${MOREAU_ASSIMP_LIB})
  target_compile_definitions(moreau_dep_assimp INTERFACE MOREAU_HAVE_ASSIMP=1)
  list(APPEND MOREAU_COLLISION_LIBS moreau_dep_assimp)
endif()
if(MOREAU_QHULL_INCLUDE AND MOREAU_QHULL_LIB)
  add_library(moreau_dep_qhull INTERFACE)
  target_include_directories(moreau_dep_qhull SYSTEM INTERFACE ${MOREAU_QHULL_INCLUDE})
  target_link_libraries(moreau_dep_qhull INTERFACE ${MOREAU_QHULL_LIB})
  target_compile_definitions(moreau_dep_qhull INTERFACE MOREAU_HAVE_QHULL=1)
  list(APPEND MOREAU_COLLISION_LIBS moreau_dep_qhull)
endif()

# --- Model import: URDF through urdfdom, MJCF on tinyxml2 (docs/model-import.md) -------------
# Required by the default build (scripts/setup.sh installs liburdfdom-dev and libtinyxml2-dev).
# urdf_parser.h includes TinyXML 1 (<tinyxml.h>, libtinyxml-dev, a dependency of liburdfdom-dev).
find_path(MOREAU_URDFDOM_INCLUDE urdf_parser/urdf_parser.h PATH_SUFFIXES urdfdom)
find_path(MOREAU_URDFDOM_HEADERS_INCLUDE urdf_model/model.h PATH_SUFFIXES urdfdom_headers)
find_library(MOREAU_URDFDOM_MODEL_LIB urdfdom_model)
find_path(MOREAU_TINYXML2_INCLUDE tinyxml2.h)
find_library(MOREAU_TINYXML2_LIB tinyxml2)
if(MOREAU_URDFDOM_INCLUDE AND MOREAU_URDFDOM_HEADERS_INCLUDE AND MOREAU_URDFDOM_MODEL_LIB
   AND MOREAU_TINYXML2_INCLUDE AND MOREAU_TINYXML2_LIB)
  add_library(moreau_dep_model_import INTERFACE)
  target_include_directories(moreau_dep_model_import SYSTEM INTERFACE
    ${MOREAU_URDFDOM_INCLUDE} ${MOREAU_URDFDOM_HEADERS_INCLUDE} ${MOREAU_TINYXML2_INCLUDE})
  target_link_libraries(moreau_dep_model_import INTERFACE ${MOREAU_URDFDOM_MODEL_LIB} ${MOREAU_TINYXML2_LIB})
  list(APPEND MOREAU_IO_LIBS moreau_dep_model_import)
else()
  message(FATAL_ERROR "moreau needs liburdfdom-dev and libtinyxml2-dev (URDF and MJCF import)")
endif()
# --- end model import --------------------------------------------------------------------------

# --- FCLib problem files (docs/solvers.md, FCLib input) ---------------------------------------
# Optional: HDF5's C API (libhdf5-dev) reads FCLib .hdf5 problems (src/moreau/io/fclib_hdf5.cpp).
# Without it moreau builds and `moreau solve` reports that FCLib input is unavailable.
# (find_path/find_library rather than FindHDF5, which needs the C language enabled.)
find_path(MOREAU_HDF5_INCLUDE hdf5.h PATH_SUFFIXES hdf5/serial)
find_library(MOREAU_HDF5_LIB NAMES hdf5_serial hdf5 PATH_SUFFIXES hdf5/serial)
if(MOREAU_HDF5_INCLUDE AND MOREAU_HDF5_LIB)
  add_library(moreau_dep_hdf5 INTERFACE)
  target_include_directories(moreau_dep_hdf5 SYSTEM INTERFACE ${MOREAU_HDF5_INCLUDE})
  target_link_libraries(moreau_dep_hdf5 INTERFACE ${MOREAU_HDF5_LIB})
  target_compile_definitions(moreau_dep_hdf5 INTERFACE MOREAU_HAVE_HDF5=1)
  list(APPEND MOREAU_IO_LIBS moreau_dep_hdf5)
endif()
# --- end FCLib ---------------------------------------------------------------------------------

# --- PNG height fields (docs/model-import.md, <hfield file="*.png">) ---------------------------
# Optional: libpng (libpng-dev) reads MJCF height fields given as PNG images
# (src/moreau/io/png_gray.cpp). Without it moreau builds and such a height field is an error that
# names the file; inline elevation data needs no library.
find_path(MOREAU_PNG_INCLUDE png.h)
find_library(MOREAU_PNG_LIB NAMES png16 png)
if(MOREAU_PNG_INCLUDE AND MOREAU_PNG_LIB)
  add_library(moreau_dep_png INTERFACE)
  target_include_directories(moreau_dep_png SYSTEM INTERFACE ${MOREAU_PNG_INCLUDE})
  target_link_libraries(moreau_dep_png INTERFACE ${MOREAU_PNG_LIB})
  target_compile_definitions(moreau_dep_png INTERFACE MOREAU_HAVE_PNG=1)
  list(APPEND MOREAU_IO_LIBS moreau_dep_png)
endif()
# --- end PNG -----------------------------------------------------------------------------------

# --- Peers: Siconos and MuJoCo, side by side with moreau (docs/performance.md) ----------------
# Optional: Siconos numerics (libsiconos-numerics-dev) adds its fc3d solvers to the registry as
# `siconos-*` (src/moreau/solvers/peer_siconos.cpp), linked directly; MuJoCo (libmujoco-dev)
# enables `moreau compare` (src/moreau/bench/compare_mujoco.cpp) and the MuJoCo micro-benchmarks.
set(MOREAU_SOLVER_LIBS "")
set(MOREAU_BENCH_LIBS "")
find_path(MOREAU_SICONOS_INCLUDE siconos/numerics/fc3d_Solvers.h)
find_path(MOREAU_SICONOS_CONFIG_INCLUDE SiconosConfig.h PATH_SUFFIXES siconos)
find_library(MOREAU_SICONOS_LIB siconos_numerics)
if(MOREAU_SICONOS_INCLUDE AND MOREAU_SICONOS_CONFIG_INCLUDE AND MOREAU_SICONOS_LIB)
  add_library(moreau_dep_siconos INTERFACE)
  # Siconos's headers include "SiconosConfig.h" from /usr/include/siconos.
  target_include_directories(moreau_dep_siconos SYSTEM INTERFACE ${MOREAU_SICONOS_INCLUDE}
    ${MOREAU_SICONOS_CONFIG_INCLUDE})
  target_link_libraries(moreau_dep_siconos INTERFACE ${MOREAU_SICONOS_LIB})
  target_compile_definitions(moreau_dep_siconos INTERFACE MOREAU_HAVE_SICONOS=1)
  list(APPEND MOREAU_SOLVER_LIBS moreau_dep_siconos)
endif()
find_path(MOREAU_MUJOCO_INCLUDE mujoco/mujoco.h)
find_library(MOREAU_MUJOCO_LIB mujoco)
if(MOREAU_MUJOCO_INCLUDE AND MOREAU_MUJOCO_LIB)
  add_library(moreau_dep_mujoco INTERFACE)
  target_include_directories(moreau_dep_mujoco SYSTEM INTERFACE ${MOREAU_MUJOCO_INCLUDE})
  target_link_libraries(moreau_dep_mujoco INTERFACE ${MOREAU_MUJOCO_LIB})
  target_compile_definitions(moreau_dep_mujoco INTERFACE MOREAU_HAVE_MUJOCO=1)
  list(APPEND MOREAU_BENCH_LIBS moreau_dep_mujoco)
endif()
# --- end peers ---------------------------------------------------------------------------------

# --- SuiteSparse: sparse Cholesky for SAP, sparse LU for nsn --------------------------------------
# An optional SuiteSparse component (libsuitesparse-dev) for the solvers: NAME found by HEADER and
# LIBRARY where the option MOREAU_USE_<NAME> is on and SUPPORTED is true, as the interface target
# moreau_dep_<name> defining MOREAU_HAVE_<NAME>=1, linked into the solvers.
function(moreau_suitesparse NAME HEADER LIBRARY SUPPORTED WITH WITHOUT)
  if(NOT MOREAU_USE_${NAME})
    return()
  endif()
  string(TOLOWER ${NAME} lower)
  find_path(MOREAU_${NAME}_INCLUDE ${HEADER} PATH_SUFFIXES suitesparse)
  find_library(MOREAU_${NAME}_LIB ${LIBRARY})
  if(MOREAU_${NAME}_INCLUDE AND MOREAU_${NAME}_LIB AND SUPPORTED)
    add_library(moreau_dep_${lower} INTERFACE)
    target_include_directories(moreau_dep_${lower} SYSTEM INTERFACE ${MOREAU_${NAME}_INCLUDE})
    target_link_libraries(moreau_dep_${lower} INTERFACE ${MOREAU_${NAME}_LIB})
    target_compile_definitions(moreau_dep_${lower} INTERFACE MOREAU_HAVE_${NAME}=1)
    set(MOREAU_SOLVER_LIBS ${MOREAU_SOLVER_LIBS} moreau_dep_${lower} PARENT_SCOPE)
    message(STATUS "moreau: ${WITH} (${MOREAU_${NAME}_LIB})")
  else()
    message(STATUS "moreau: ${WITHOUT}")
  endif()
endfunction()
# CHOLMOD factors SAP's Hessian M + J^T G J on its block pattern (src/moreau/solvers/
# sap_linear.cpp); without it SAP always uses its dense LLT.
option(MOREAU_USE_CHOLMOD "Use CHOLMOD (SuiteSparse) for SAP's sparse Newton system when found" ON)
moreau_suitesparse(CHOLMOD cholmod.h cholmod TRUE "SAP sparse Hessian with CHOLMOD"
  "CHOLMOD not found (libsuitesparse-dev): SAP uses its dense Hessian")
# KLU factors nsn's sparse Newton system (src/moreau/solvers/nsn.cpp; piles, FCLib's larger
# problems); without it Eigen's SparseLU. Eigen's KLU module (Eigen/KLUSupport) came with 3.4.
option(MOREAU_USE_KLU "Use KLU (SuiteSparse) for nsn's sparse Newton system when found" ON)
if(Eigen3_VERSION VERSION_GREATER_EQUAL 3.4)
  set(moreau_eigen_klu TRUE)
else()
  set(moreau_eigen_klu FALSE)
endif()
moreau_suitesparse(KLU klu.h klu ${moreau_eigen_klu} "nsn's sparse Newton system with KLU"
  "KLU (libsuitesparse-dev) or Eigen >= 3.4 not found: nsn uses Eigen's SparseLU")
# --- end SuiteSparse -----------------------------------------------------------------------------
