"""This copy of chord-git as an installed distribution: where it was installed from (``source``)
and every command the tool prints to install it or one of its extras (``hints``)."""
