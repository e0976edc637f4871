import { Component, type ReactNode } from 'react';

interface Props {
  /** What to show, as plain text, if rendering the children throws. */
  text: () => string;
  /** A new key (the text grew, another run) tries the children again. */
  resetKey: unknown;
  children: ReactNode;
}

interface State {
  error?: string;
  key: unknown;
}

/**
 * Gateway text that fails to render shows as text, with a note, and the rest of the window keeps working
 * (docs/security.md §13): without a boundary one throw in a render unmounts the whole app.
 */
export class OutputBoundary extends Component<Props, State> {
  override state: State = { key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.key ? null : { key: props.resetKey, error: undefined };
  }

  override render(): ReactNode {
    if (this.state.error === undefined) return this.props.children;
    return (
      <div className="text plain as-text">
        <p className="muted small md-note" role="note">
          Shown as text: it could not be rendered ({this.state.error}).
        </p>
        {this.props.text()}
      </div>
    );
  }
}
