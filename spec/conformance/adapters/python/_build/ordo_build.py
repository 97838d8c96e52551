"""The build backend of the ordo-protocol package (PEP 517, with PEP 660 editable installs).

In-tree and standard library only, so that `pip install spec/conformance/adapters/python`
works offline on a bare Python 3.11: setuptools before 70.1 cannot build a wheel without the
separate `wheel` package, which a fresh venv does not have. It packs the top-level modules
named in [tool.ordo-build] of pyproject.toml and the metadata of [project]; nothing else.
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import tomllib
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EPOCH = (1980, 1, 1, 0, 0, 0)  # fixed times: the same sources give the same archives
LICENSES = ["LICENSE-MIT", "LICENSE-APACHE"]


def _project():
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        doc = tomllib.load(f)
    return doc["project"], doc["tool"]["ordo-build"]


def _stem(project):
    name = re.sub(r"[-_.]+", "_", project["name"]).lower()
    return f"{name}-{project['version']}"


def _read(name):
    with open(os.path.join(HERE, name), "rb") as f:
        return f.read()


def _metadata(project):
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}",
             f"Version: {project['version']}", f"Summary: {project['description']}",
             f"License: {project['license']}"]
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    if project.get("keywords"):
        lines.append(f"Keywords: {','.join(project['keywords'])}")
    lines += [f"Classifier: {c}" for c in project.get("classifiers", [])]
    lines.append("Description-Content-Type: text/markdown")
    readme = _read(project["readme"]).decode("utf-8")
    return ("\n".join(lines) + "\n\n" + readme).encode("utf-8")


def _dist_info(project):
    """The files of the .dist-info folder, RECORD aside: name to bytes."""
    files = {"METADATA": _metadata(project),
             "WHEEL": b"Wheel-Version: 1.0\nGenerator: ordo_build\nRoot-Is-Purelib: true\n"
                      b"Tag: py3-none-any\n"}
    scripts = project.get("scripts", {})
    if scripts:
        entries = "".join(f"{k} = {v}\n" for k, v in sorted(scripts.items()))
        files["entry_points.txt"] = f"[console_scripts]\n{entries}".encode("utf-8")
    for name in LICENSES:
        files[name] = _read(name)
    return files


def _wheel(directory, payload):
    """Write a wheel of `payload` (archive path to bytes) and its dist-info; its file name."""
    project, _ = _project()
    stem = _stem(project)
    info = f"{stem}.dist-info"
    entries = dict(payload)
    entries.update({f"{info}/{k}": v for k, v in _dist_info(project).items()})
    record = []
    for path, data in entries.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    entries[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode("utf-8")
    wheel = f"{stem}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(directory, wheel), "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in entries.items():
            entry = zipfile.ZipInfo(path, EPOCH)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(entry, data)
    return wheel


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    project, _ = _project()
    info = f"{_stem(project)}.dist-info"
    os.makedirs(os.path.join(metadata_directory, info), exist_ok=True)
    for name, data in _dist_info(project).items():
        with open(os.path.join(metadata_directory, info, name), "wb") as f:
            f.write(data)
    return info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _, tool = _project()
    return _wheel(wheel_directory, {f"{m}.py": _read(f"{m}.py") for m in tool["py-modules"]})


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """A wheel whose one .pth file puts this folder on sys.path (PEP 660)."""
    project, _ = _project()
    pth = f"_{re.sub(r'[-.]+', '_', project['name'])}.pth"
    return _wheel(wheel_directory, {pth: (HERE + "\n").encode("utf-8")})


def build_sdist(sdist_directory, config_settings=None):
    project, tool = _project()
    stem = _stem(project)
    names = ["pyproject.toml", project["readme"], "_build/ordo_build.py", *LICENSES]
    names += [f"{m}.py" for m in tool["py-modules"]]
    files = {name: _read(name) for name in names}
    files["PKG-INFO"] = _metadata(project)
    sdist = f"{stem}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, sdist), "w:gz", format=tarfile.PAX_FORMAT) as t:
        for name, data in sorted(files.items()):
            entry = tarfile.TarInfo(f"{stem}/{name}")
            entry.size, entry.mode, entry.mtime = len(data), 0o644, 315532800
            t.addfile(entry, io.BytesIO(data))
    return sdist
