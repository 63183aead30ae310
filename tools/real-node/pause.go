// The pod sandbox ("pause") process of the real node's images: it holds the pod's namespaces
// and exits on SIGTERM/SIGINT, as the upstream pause image does. Built here because no registry
// is reachable to pull registry.k8s.io/pause.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	// As PID 1 of the sandbox it also reaps orphans, so none linger as zombies.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGCHLD)
	go func() {
		for {
			var ws syscall.WaitStatus
			if _, err := syscall.Wait4(-1, &ws, 0, nil); err != nil {
				select {}
			}
		}
	}()
	<-stop
}
