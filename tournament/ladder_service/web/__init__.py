"""The ladder's public web page (``create_app``) and its server (``server.running_web``)."""

from tournament.ladder_service.web.app import create_app

__all__ = ["create_app"]
