#pragma once
// The few MuJoCo functions the optional cross-checks use, resolved at run time with dlopen from
// Debian's libmujoco-dev, so that the tests build and skip cleanly without it.
// MOREAU_TEST_MUJOCO is defined when MuJoCo's header is present.
#if __has_include(<mujoco/mujoco.h>)
#include <dlfcn.h>
#include <mujoco/mujoco.h>
#define MOREAU_TEST_MUJOCO 1

namespace moreau::test {

struct MuJoCo {
  void* lib = nullptr;
  mjModel* (*load)(const char*, const mjVFS*, char*, int) = nullptr;
  mjData* (*make_data)(const mjModel*) = nullptr;
  void (*kinematics)(const mjModel*, mjData*) = nullptr;
  void (*step)(const mjModel*, mjData*) = nullptr;
  void (*reset_key)(const mjModel*, mjData*, int) = nullptr;
  int (*name2id)(const mjModel*, int, const char*) = nullptr;
  void (*delete_data)(mjData*) = nullptr;
  void (*delete_model)(mjModel*) = nullptr;
  // False when the library or one of the functions is missing.
  bool open() {
    for (const char* name : {"libmujoco.so", "libmujoco.so.2.2.2"})
      if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    if (!lib) return false;
    load = reinterpret_cast<decltype(load)>(dlsym(lib, "mj_loadXML"));
    make_data = reinterpret_cast<decltype(make_data)>(dlsym(lib, "mj_makeData"));
    kinematics = reinterpret_cast<decltype(kinematics)>(dlsym(lib, "mj_kinematics"));
    name2id = reinterpret_cast<decltype(name2id)>(dlsym(lib, "mj_name2id"));
    step = reinterpret_cast<decltype(step)>(dlsym(lib, "mj_step"));
    reset_key = reinterpret_cast<decltype(reset_key)>(dlsym(lib, "mj_resetDataKeyframe"));
    delete_data = reinterpret_cast<decltype(delete_data)>(dlsym(lib, "mj_deleteData"));
    delete_model = reinterpret_cast<decltype(delete_model)>(dlsym(lib, "mj_deleteModel"));
    return load && make_data && kinematics && name2id && step && reset_key && delete_data &&
           delete_model;
  }
};

}  // namespace moreau::test
#endif
