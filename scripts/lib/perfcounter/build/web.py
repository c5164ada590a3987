# SPDX-License-Identifier: MIT
"""The JavaScript libraries the HTML report embeds, from their npm
packages: fetched once from the npm registry (the only place besides
Debian's archive anything comes from), checked against the integrity
the registry published for that version, and cached.  Each report
carries them inline, with their licences, so it opens offline.

    d3 7.9.0 (ISC)                  dist/d3.min.js
    d3-flame-graph 5.0.0 (Apache-2.0) dist/d3-flamegraph.umd.min.js,
                                    dist/d3-flamegraph.css
"""

from dataclasses import dataclass

from perfcounter.build import cache
from perfcounter.errors import Failure
from perfcounter.messages import say
from perfcounter.paths import CACHE

REGISTRY = "https://registry.npmjs.org"


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    licence: str
    integrity: str          # the registry's dist.integrity (sha512)
    files: tuple            # what the report takes of it

    @property
    def url(self):
        return (f"{REGISTRY}/{self.name}/-/{self.name.split('/')[-1]}-"
                f"{self.version}.tgz")

    @property
    def folder(self):
        return CACHE / "web" / f"{self.name}-{self.version}"


D3 = Package("d3", "7.9.0", "ISC",
             "sha512-e1U46jVP+w7Iut8Jt8ri1YsPOvFpg46k+K8TpCb0P+zjCkjkPnV7Wz"
             "fDJzMHy1LnA+wj5pLT1wjO901gLXeEhA==",
             ("dist/d3.min.js", "LICENSE"))
FLAME_GRAPH = Package(
    "d3-flame-graph", "5.0.0", "Apache-2.0",
    "sha512-ALZQ4at8Dex8HCoj9D5p5TY6gLNEc2vAZAy+NKO/6GLEfhYJmGxYuRClO6RPop"
    "lndyOHxQTPipdlGeMggkjtnQ==",
    ("dist/d3-flamegraph.umd.min.js", "dist/d3-flamegraph.css", "LICENSE"))
PACKAGES = (D3, FLAME_GRAPH)


def _fetch(package):
    def builder(interrupted):
        # (here: urllib and the rest took 40 ms of every --html run)
        import base64
        import hashlib
        import io
        import shutil
        import tarfile
        import urllib.request
        if package.folder.exists():
            shutil.rmtree(package.folder)
        say(f"fetching the npm package {package.name} {package.version} "
            f"(once, for HTML reports)")
        try:
            with urllib.request.urlopen(package.url, timeout=60) as r:
                data = r.read()
        except OSError as err:
            raise Failure(f"cannot fetch {package.url} ({err}): HTML "
                          f"reports need it once") from None
        algorithm, _, digest = package.integrity.partition("-")
        if base64.b64encode(hashlib.new(algorithm, data).digest()) \
                .decode() != digest:
            raise Failure(f"{package.url} is not the package the registry "
                          f"published (its {algorithm} differs)")
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            for name in package.files:
                member = tar.extractfile(f"package/{name}")
                out = package.folder / name
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(member.read())
    cache.ensure(package.folder, package.integrity, builder,
                 f"the npm package {package.name}")


def ensure():
    """Every package the report embeds, fetched if need be: before the
    run (fetched as the outputs were written, a registry out of reach
    lost the run's other outputs)."""
    for package in PACKAGES:
        _fetch(package)


def text(package, name):
    """A file of package (one of its files), fetched if need be."""
    _fetch(package)
    return (package.folder / name).read_text()
