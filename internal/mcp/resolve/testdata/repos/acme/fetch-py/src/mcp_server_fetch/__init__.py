from .server import serve
