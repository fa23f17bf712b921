import { Component, type ErrorInfo, type ReactNode } from 'react';
import { errorReporter } from '@/lib/resilience/error-reporter';
import { CrashScreen } from './crash-screen';

type CrashBoundaryProps = {
  children: ReactNode;
  /** When this changes (e.g. the path), a shown crash screen is cleared. */
  resetKey?: unknown;
};

type CrashBoundaryState = { error: Error | null; resetKey: unknown };

/**
 * Catches a rendering error in a feature or page and shows the crash screen (spec §4, §8).
 * React itself reports the caught error to the console; the app's error reporter sends it on.
 */
export class CrashBoundary extends Component<CrashBoundaryProps, CrashBoundaryState> {
  override state: CrashBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<CrashBoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(
    props: CrashBoundaryProps,
    state: CrashBoundaryState,
  ): Partial<CrashBoundaryState> | null {
    if (props.resetKey === state.resetKey) return null;
    return { resetKey: props.resetKey, error: null };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    void errorReporter.report('render', error, {
      componentStack: info.componentStack?.slice(0, 2000) ?? null,
    });
  }

  private readonly retry = () => this.setState({ error: null });

  override render() {
    if (this.state.error) return <CrashScreen onRetry={this.retry} />;
    return this.props.children;
  }
}
