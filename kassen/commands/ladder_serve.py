"""What ``kassen ladder serve`` does: open the database, serve gRPC and the web page, stop
cleanly on SIGINT/SIGTERM (the flags are in ladder.py)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import secrets
import signal
import sys
from collections.abc import AsyncIterator

from kassen.errors import UsageError
from server.logs import configure
from server.settings import ServerSettings
from tournament.ladder_service.service import LadderService, LadderSettings


async def serve(
    args: argparse.Namespace, settings: LadderSettings, server_settings: ServerSettings
) -> None:
    from kassen.commands.database import open_database
    from server.app import AddressInUse, Unprotected
    from server.load import monitoring
    from tournament.ladder_service.app import running_ladder
    from tournament.ladder_service.referees import RefereesError, remote_referees
    from tournament.ray_pool import RayUnavailable
    from tournament.submissions.kit import NoSandbox

    configure(args.log_level)
    if server_settings.relay_token is None:  # the page presents it here and at Ray referees
        server_settings = dataclasses.replace(
            server_settings, relay_token=secrets.token_urlsafe(32)
        )
    engine = open_database(args.db, create_folder=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sign in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sign, stop.set)
    try:
        async with (
            remote_referees(
                settings.referees,
                server_settings.admin_token,
                settings.submissions,
                settings.max_live_matches,
                server_settings.relay_token,
            ) as remote,
            running_ladder(engine, settings, args.address, server_settings, remote) as service,
            _web(service, args.web, args.log_level) as web_address,
            monitoring(server_settings.load_report_s),  # once started: matches come now
        ):
            pools = ", ".join(key.label for key in settings.pools)
            page = f"http://{web_address}" if web_address else "no web page"
            print(
                f"kassen ladder: serving on {service.referee.address} ({page}); "
                f"pools {pools}; database {args.db}",
                file=sys.stderr,
                flush=True,
            )
            if service.submitted is not None and service.submitted.kit is not None:
                kit = service.submitted.kit
                usable = [name for name, r in sorted(kit.runtimes.items()) if not r.problem]
                print(
                    f"kassen ladder: submissions on ({', '.join(usable)}); "
                    + "; ".join(kit.host.bounds()),
                    file=sys.stderr,
                    flush=True,
                )
            if remote:
                print(
                    "kassen ladder: matches on "
                    + ", ".join(slot.label for slot in service.fleet.slots),
                    file=sys.stderr,
                    flush=True,
                )
            await stop.wait()
    except (AddressInUse, Unprotected, NoSandbox, RefereesError, RayUnavailable) as exc:
        raise UsageError(str(exc)) from None
    finally:
        engine.dispose()


@contextlib.asynccontextmanager
async def _web(service: LadderService, address: str, log_level: str) -> AsyncIterator[str]:
    """The web page on ``address`` in its own process (its bound host:port), or nothing for
    ``none``."""
    if address == "none":
        yield ""
        return
    from tournament.ladder_service.web.live import LiveLimits
    from tournament.ladder_service.web.process import WebPageError, running_web

    settings = service.referee.settings
    try:
        async with running_web(
            address,
            service.engine.url.render_as_string(hide_password=False),
            service.private_address,
            relay_token=settings.relay_token,
            limits=LiveLimits(
                per_match=settings.max_watchers_per_match,
                per_client=settings.max_watchers_per_caller,
                total=settings.max_watchers,
            ),
            log_level=log_level,
            referees_ca=str(ca.resolve()) if (ca := service.settings.referees.tls_ca) else None,
        ) as page:
            yield page.address
    except WebPageError as exc:
        raise UsageError(str(exc)) from None
