"""Hostile: reach the host over TCP (loopback and its own address), UDP, an abstract Unix
socket, and name resolution; report each on stderr, then play normally."""

import socket
import sys


def report(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def attempt(what: str, family: int, kind: int, where: object, data: bytes = b"hostile") -> None:
    s = socket.socket(family, kind)
    s.settimeout(3)
    try:
        s.connect(where)
        s.send(data)
        if kind == socket.SOCK_DGRAM:
            s.send(data)  # a second send reports an ICMP refusal of the first, if any
        # UDP "connects" without a peer: whether a datagram left is for the host to say.
        report(f"{'LEAK' if kind == socket.SOCK_STREAM else 'sent'}: {what}: connected and sent")
    except OSError as error:
        report(f"contained: {what}: {error}")
    finally:
        s.close()


host_ip, tcp_lo, tcp_host, udp_lo, udp_host, abstract = sys.argv[1:7]
attempt("tcp 127.0.0.1", socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", int(tcp_lo)))
attempt(f"tcp {host_ip}", socket.AF_INET, socket.SOCK_STREAM, (host_ip, int(tcp_host)))
attempt("tcp ::1", socket.AF_INET6, socket.SOCK_STREAM, ("::1", int(tcp_lo)))
attempt("udp 127.0.0.1", socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", int(udp_lo)))
attempt(f"udp {host_ip}", socket.AF_INET, socket.SOCK_DGRAM, (host_ip, int(udp_host)))
attempt("abstract unix socket", socket.AF_UNIX, socket.SOCK_STREAM, "\0" + abstract)
for name in ("pypi.org", "example.com"):
    try:
        report(f"LEAK: resolve {name}: {socket.gethostbyname(name)}")
    except OSError as error:
        report(f"contained: resolve {name}: {error}")

from client_sdk import Bot, run_bot  # noqa: E402


class Plain(Bot):
    name = "hostile-network"

    def choose(self, request):  # type: ignore[no-untyped-def]
        return 0


run_bot(Plain())
report("played to the end")
