"""The package itself: `import sekit` stays cheap, its version is the tool's, the old module name
and its command line still work, and pyproject.toml declares what the package needs."""

import json
import os
import re
import subprocess
import sys
import unittest

import sekit
from tests import support

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None


def python(code, *arguments):
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([support.PACKAGE_FOLDER, os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", code, *arguments], capture_output=True, text=True, env=environment)
    if done.returncode != 0:
        raise AssertionError(done.stderr)
    return done.stdout


class PackageTests(unittest.TestCase):
    def test_import_sekit_loads_no_submodule_nor_dependency(self):
        loaded = json.loads(python("import json, sys, sekit; print(json.dumps(sorted(sys.modules)))"))
        for name in ("numpy", "h5py", "torch", "pandas", "sekit.data", "sekit.predictions", "sekit.tracking",
                     "sekit.catalog"):
            self.assertNotIn(name, loaded)
        self.assertEqual(python("import sekit; print(sekit.data.SEKitFeatureDataset.__module__)").strip(), "sekit.data")

    def test_version_is_the_tools(self):
        source = os.path.join(support.ROOT, "Sources", "SEKitSignal", "Base", "SEKitVersion.swift")
        with open(source) as f:
            swift = re.search(r'static let string = "([^"]+)"', f.read()).group(1)
        self.assertEqual(sekit.__version__, swift)

    def test_the_first_module_name_still_works(self):
        code = ("import sekit_dataset, sekit.data; "
                "print(sekit_dataset.SEKitFeatureDataset is sekit.data.SEKitFeatureDataset, "
                "sekit_dataset.read_index is sekit.data.read_index)")
        self.assertEqual(python(code).split(), ["True", "True"])
        path = support.features("plain", "--targets", "clean,irm")
        script = os.path.join(support.PACKAGE_FOLDER, "sekit_dataset.py")
        done = subprocess.run([sys.executable, script, path, "irm", "16"], capture_output=True, text=True,
                              env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
        self.assertEqual(done.returncode, 0, done.stderr)
        summary = json.loads(done.stdout)
        self.assertEqual((summary["clips"], summary["noisy_shape"], summary["target_shape"]), (24, [16, 257], [16, 257]))

    @unittest.skipIf(tomllib is None, "tomllib needs Python 3.11")
    def test_pyproject_declares_the_package(self):
        with open(os.path.join(support.PACKAGE_FOLDER, "pyproject.toml"), "rb") as f:
            project = tomllib.load(f)
        self.assertEqual(project["project"]["name"], "sekit")
        self.assertEqual(sorted(project["project"]["dependencies"]), ["h5py", "numpy"])
        self.assertEqual(sorted(project["project"]["optional-dependencies"]), ["pandas", "torch"])
        self.assertEqual(project["tool"]["setuptools"]["packages"], ["sekit"])


if __name__ == "__main__":
    unittest.main()
