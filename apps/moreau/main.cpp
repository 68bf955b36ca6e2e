// moreau: simulate constrained rigid multi-body systems with frictional contact and compare
// solvers.
#include <iostream>

#include "commands.hpp"

int main(int argc, char** argv) {
  using namespace moreau::cli;
  CLI::App app{
      "moreau: constrained rigid multi-body simulation with hard frictional contact, and the "
      "contact solvers of the field side by side"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "moreau 0.1.0");
  // One line per subcommand (cmd_<name>.cpp).
  add_simulate(app);
  add_inspect(app);
  add_convert(app);
  add_solve(app);
  add_solvers(app);
  add_bench(app, argc, argv);
  add_experiment(app);
  add_compare(app);
  add_view(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitBadInput;
  } catch (const Exit& e) {
    return e.code;
  }
  return kExitOk;
}
