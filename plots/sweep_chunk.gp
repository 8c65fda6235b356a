# Each headline ratio against the chunk (pipe size fixed); see sweep.gp.
xwhat = 'chunk (bytes per send/recv call; HAProxy tune.bufsize)'
load scriptdir.'/sweep.gp'
