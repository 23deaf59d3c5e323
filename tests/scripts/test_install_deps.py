#!/usr/bin/env python3
"""scripts/install-deps.sh splits what building and running need from what the tests need: with
the tests' Python modules missing (shadowed here by modules that fail to import) and nothing
installed (--check), the plain check passes and the --tests check names them. The README's two
commands use the two checks, and .ci/run runs the README's test command verbatim."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "install-deps.sh")
TEST_MODULES = ("numpy", "matplotlib", "jsonschema")


def check(*flags, hidden=()):
    """install-deps.sh --check FLAGS with the modules `hidden` failing to import."""
    with tempfile.TemporaryDirectory() as folder:
        for module in hidden:
            with open(os.path.join(folder, module + ".py"), "w") as f:
                f.write('raise ImportError("hidden by test_install_deps")\n')
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [folder, env.get("PYTHONPATH")]))
        return subprocess.run([SCRIPT, "--check", *flags], env=env, capture_output=True,
                              text=True, timeout=300)


def readme_commands():
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    return re.findall(r"```sh\n(scripts/install-deps\.sh[^\n]*)\n```", readme)


class InstallDeps(unittest.TestCase):
    def test_running_needs_none_of_the_test_modules(self):
        done = check(hidden=TEST_MODULES)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("everything is present", done.stdout)
        for module in TEST_MODULES:
            self.assertNotIn(module, done.stdout + done.stderr)

    def test_the_tests_check_names_each_missing_module(self):
        done = check("--tests", hidden=("jsonschema",))
        self.assertEqual(done.returncode, 1, done.stdout)
        self.assertIn("cannot be built and tested yet", done.stderr)
        self.assertIn("Python module jsonschema", done.stderr)
        self.assertIn("nothing was installed (--check)", done.stderr)

    def test_an_unknown_argument_is_refused(self):
        done = subprocess.run([SCRIPT, "--test"], capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 2)
        self.assertIn("unknown argument '--test'", done.stderr)

    def test_the_readme_commands_and_ci(self):
        commands = readme_commands()
        self.assertEqual(len(commands), 2, commands)
        build_and_run, build_and_test = commands
        self.assertTrue(build_and_run.startswith("scripts/install-deps.sh && "), build_and_run)
        self.assertIn("-DBUILD_TESTING=OFF", build_and_run)
        self.assertTrue(build_and_test.startswith("scripts/install-deps.sh --tests && "),
                        build_and_test)
        self.assertIn("-DBUILD_TESTING=ON", build_and_test)
        with open(os.path.join(ROOT, ".ci", "run")) as f:
            ci = [line for line in f.read().splitlines() if line and not line.startswith("#")]
        self.assertIn(build_and_test, ci)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
