# Each headline ratio against the pipe size (chunk fixed); see sweep.gp.
xwhat = 'pipe size (F_SETPIPE_SZ; HAProxy tune.pipesize)'
load scriptdir.'/sweep.gp'
