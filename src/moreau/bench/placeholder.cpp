#include "moreau/bench/bench.hpp"
