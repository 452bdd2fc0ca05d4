"""The page that plays offline, as the files of a static site: what ``cassino serve`` offers under
``/offline/`` and what ``cassino site DIR`` writes, the same files both ways.

The site is the table page in its offline mode (``index.html`` marked ``data-mode="offline"``,
its links made relative), its scripts and styles, the card images, the lobby's settings and the
catalogues as JSON, the vendored Pyodide, the engine as a pure-Python wheel built here from the
installed package's own sources (so the page runs the same commit as the server), a web app
manifest with its icons, and a service worker that keeps every one of these files on the first
visit. Nothing is fetched from anywhere else.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile
from functools import cache
from pathlib import Path

from .. import __version__
from ..cards import CARD_NAMES
from .card_images import back_svg, card_svg

PACKAGE = Path(__file__).resolve().parent.parent
"""The installed ``cassino`` package, whose sources make the wheel."""
STATIC = Path(__file__).parent / "static"
WHEEL = f"cassino-{__version__}-py3-none-any.whl"
_LEFT_OUT = ("web/static/", "__pycache__/")
"""Parts of the package the engine in the page never reads (the page itself is served beside it)."""
_SERVER_ONLY = ("index.html", "sw.js", "vendor/svg-cards/svg-cards.svg")
"""Static files the site replaces: its own index page and service worker (templates here), and the
sheet the card images are cut from."""
_ZIP_TIME = (2020, 1, 1, 0, 0, 0)
"""Every member's time, so that the same sources always make the same wheel."""

OFFLINE_POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The server's content security policy for the offline page, which also compiles WebAssembly
(Pyodide) and starts its own workers; still nothing from anywhere else."""

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
}


def media_type(name: str) -> str:
    """The type a site file is served as (WebAssembly must be ``application/wasm`` to stream)."""
    return _TYPES.get(Path(name).suffix, "text/plain; charset=utf-8")


SiteFile = bytes | Path
"""A file of the site: its bytes, or where it lies on disk (the vendored files, read when sent)."""


def _sources() -> list[tuple[str, Path]]:
    """The package's Python files, typing marker and the players' data (``players/data``: what
    playing for the game reads), by their path in the wheel, in order."""
    found = []
    for path in sorted(PACKAGE.rglob("*")):
        name = "cassino/" + path.relative_to(PACKAGE).as_posix()
        if (
            path.is_file()
            and (path.suffix == ".py" or path.name == "py.typed" or name.startswith("cassino/players/data/"))
            and not any(p in name for p in _LEFT_OUT)
        ):
            found.append((name, path))
    return found


def engine_wheel() -> bytes:
    """The engine as a pure-Python wheel (``WHEEL``) of the installed package's sources: no
    compiled module, no dependency, the same bytes for the same sources."""
    members = [(name, path.read_bytes()) for name, path in _sources()]
    info = f"cassino-{__version__}.dist-info"
    members.append(
        (
            f"{info}/METADATA",
            f"Metadata-Version: 2.1\nName: cassino\nVersion: {__version__}\nRequires-Python: >=3.11\n".encode(),
        )
    )
    members.append(
        (
            f"{info}/WHEEL",
            b"Wheel-Version: 1.0\nGenerator: cassino.web.site\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
    )
    record = []
    for name, data in members:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    members.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as wheel:
        for name, data in members:
            member = zipfile.ZipInfo(name, _ZIP_TIME)
            member.compress_type = zipfile.ZIP_DEFLATED
            member.external_attr = 0o644 << 16
            wheel.writestr(member, data)
    return out.getvalue()


def offline_index() -> bytes:
    """The table page in its offline mode: marked so, with links relative to the site's folder,
    the manifest and the theme colour of an installed app."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    html = html.replace("<html ", '<html data-mode="offline" ', 1)
    html = html.replace('"/static/', '"static/').replace('href="/#"', 'href="#"').replace('"/cards/', '"cards/')
    head = (
        '<link rel="manifest" href="manifest.webmanifest">\n'
        '<meta name="theme-color" content="#14532d">\n'
        '<link rel="apple-touch-icon" href="static/icons/icon-192.png">\n'
    )
    html = html.replace("</head>", head + "</head>", 1)
    return html.encode()


def manifest() -> bytes:
    """The web app manifest: installable, opening at the site's folder, standing alone."""
    data = {
        "name": "Casino",
        "short_name": "Casino",
        "description": "The card game Casino, played in the page, with or without a connection",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#14532d",
        "theme_color": "#14532d",
        "icons": [
            {"src": f"static/icons/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png", "purpose": "any"}
            for n in (192, 512)
        ],
    }
    return json.dumps(data, indent=1).encode()


@cache
def site_files() -> dict[str, SiteFile]:
    """Every file of the site by its path in it, the service worker last (it lists the others
    with their version, so that a new version of any of them installs afresh)."""
    from .i18n import LANGUAGES, catalogue_json  # only here: Babel reads the catalogues
    from .page_config import config

    files: dict[str, SiteFile] = {"index.html": offline_index()}
    for path in sorted(STATIC.rglob("*")):
        name = path.relative_to(STATIC).as_posix()
        if path.is_file() and name not in _SERVER_ONLY:
            files[f"static/{name}"] = path
    for card, name in enumerate(CARD_NAMES):
        files[f"cards/{name}.svg"] = card_svg(card).encode()
    files["cards/back.svg"] = back_svg().encode()
    files["config.json"] = json.dumps(config()).encode()
    for language in LANGUAGES:
        files[f"i18n/{language}.json"] = catalogue_json(language).encode()
    files[WHEEL] = engine_wheel()
    files["manifest.webmanifest"] = manifest()
    version = hashlib.sha256()
    for name in sorted(files):
        version.update(name.encode() + b"\0" + read(files[name]))
    files["site.json"] = json.dumps({"version": version.hexdigest()[:16], "wheel": WHEEL}).encode()
    listed = ["./", *sorted(files)]
    worker = (STATIC / "sw.js").read_text(encoding="utf-8")
    worker = worker.replace('"__VERSION__"', json.dumps(version.hexdigest()[:16]))
    worker = worker.replace('["__FILES__"]', json.dumps(listed))
    files["sw.js"] = worker.encode()
    return files


@cache
def site_etag(name: str) -> str:
    """A site file's entity tag: its content's hash, so a browser holding it is answered 304."""
    return '"' + hashlib.sha256(read(site_files()[name])).hexdigest()[:32] + '"'


def read(file: SiteFile) -> bytes:
    """A site file's bytes."""
    return file if isinstance(file, bytes) else file.read_bytes()


def write_site(folder: Path) -> int:
    """Write the site into ``folder`` (made if need be; files of the same names replaced);
    returns how many files were written."""
    files = site_files()
    for name, file in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(read(file))
    return len(files)
