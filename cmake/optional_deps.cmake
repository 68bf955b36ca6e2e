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

# --- Sparse Cholesky for SAP's Newton Hessian ---------------------------------------------------
# Optional: CHOLMOD (libsuitesparse-dev) factors SAP's Hessian M + J^T G J on its block pattern
# (src/moreau/solvers/sap_linear.cpp). Without it SAP always uses its dense LLT. Turn it off
# with -DMOREAU_USE_CHOLMOD=OFF.
option(MOREAU_USE_CHOLMOD "Use CHOLMOD (SuiteSparse) for SAP's sparse Newton system when found" ON)
if(MOREAU_USE_CHOLMOD)
  find_path(MOREAU_CHOLMOD_INCLUDE cholmod.h PATH_SUFFIXES suitesparse)
  find_library(MOREAU_CHOLMOD_LIB cholmod)
  if(MOREAU_CHOLMOD_INCLUDE AND MOREAU_CHOLMOD_LIB)
    add_library(moreau_dep_cholmod INTERFACE)
    target_include_directories(moreau_dep_cholmod SYSTEM INTERFACE ${MOREAU_CHOLMOD_INCLUDE})
    target_link_libraries(moreau_dep_cholmod INTERFACE ${MOREAU_CHOLMOD_LIB})
    target_compile_definitions(moreau_dep_cholmod INTERFACE MOREAU_HAVE_CHOLMOD=1)
    list(APPEND MOREAU_SOLVER_LIBS moreau_dep_cholmod)
    message(STATUS "moreau: SAP sparse Hessian with CHOLMOD (${MOREAU_CHOLMOD_LIB})")
  else()
    message(STATUS "moreau: CHOLMOD not found (libsuitesparse-dev): SAP uses its dense Hessian")
  endif()
endif()
# --- end sparse Cholesky -----------------------------------------------------------------------

# --- Sparse LU for nsn's Newton system ----------------------------------------------------------
# Optional: KLU (libsuitesparse-dev) factors nsn's sparse Newton system (src/moreau/solvers/nsn.cpp;
# piles, FCLib's larger problems); without it Eigen's SparseLU. Turn it off with
# -DMOREAU_USE_KLU=OFF.
option(MOREAU_USE_KLU "Use KLU (SuiteSparse) for nsn's sparse Newton system when found" ON)
if(MOREAU_USE_KLU)
  find_path(MOREAU_KLU_INCLUDE klu.h PATH_SUFFIXES suitesparse)
  find_library(MOREAU_KLU_LIB klu)
  # Eigen's KLU module (Eigen/KLUSupport) came with Eigen 3.4.
  if(MOREAU_KLU_INCLUDE AND MOREAU_KLU_LIB AND Eigen3_VERSION VERSION_GREATER_EQUAL 3.4)
    add_library(moreau_dep_klu INTERFACE)
    target_include_directories(moreau_dep_klu SYSTEM INTERFACE ${MOREAU_KLU_INCLUDE})
    target_link_libraries(moreau_dep_klu INTERFACE ${MOREAU_KLU_LIB})
    target_compile_definitions(moreau_dep_klu INTERFACE MOREAU_HAVE_KLU=1)
    list(APPEND MOREAU_SOLVER_LIBS moreau_dep_klu)
    message(STATUS "moreau: nsn's sparse Newton system with KLU (${MOREAU_KLU_LIB})")
  else()
    message(STATUS "moreau: KLU (libsuitesparse-dev) or Eigen >= 3.4 not found: nsn uses Eigen's SparseLU")
  endif()
endif()
# --- end sparse LU -------------------------------------------------------------------------------
