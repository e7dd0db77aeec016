package flight

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/url"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// GRPCDialer is the Dialer of Flight's gRPC locations: "grpc://host:port"
// and "grpc+tcp://host:port" in plain text, "grpc+tls://host:port" over
// TLS with the host's root certificates, each with opts after those
// credentials (auth interceptors, message size limits, …; a
// grpc.WithTransportCredentials in opts replaces the default). Any other
// scheme is an error naming it.
func GRPCDialer(opts ...grpc.DialOption) Dialer {
	return func(_ context.Context, uri string) (flight.Client, error) {
		u, err := url.Parse(uri)
		if err != nil {
			return nil, fmt.Errorf("arrowmap/flight: location %q: %w", uri, err)
		}
		var creds credentials.TransportCredentials
		switch u.Scheme {
		case "grpc", "grpc+tcp":
			creds = insecure.NewCredentials()
		case "grpc+tls":
			creds = credentials.NewTLS(&tls.Config{ServerName: u.Hostname(), MinVersion: tls.VersionTLS12})
		default:
			return nil, fmt.Errorf("arrowmap/flight: location %q: no dialer for scheme %q (grpc, grpc+tcp, grpc+tls)", uri, u.Scheme)
		}
		if u.Host == "" {
			return nil, fmt.Errorf("arrowmap/flight: location %q has no host", uri)
		}
		all := append([]grpc.DialOption{grpc.WithTransportCredentials(creds)}, opts...)
		return flight.NewClientWithMiddleware(u.Host, nil, nil, all...)
	}
}
